"""Options and system variables: one registry (options.py), the live global values
(variables.py), option files (mycnf.py) and the command line (cmdline.py)."""
