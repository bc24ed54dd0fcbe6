"""SQL text, below the engine and the session: character sets (charsets.py), the one lexer
(lexer.py), the front door that scans a statement once into a `Statement` (statement.py), and a
token cursor for the small grammars read word by word (reader.py).

Imports: errors and config only; the engine and the session import this package.
"""
