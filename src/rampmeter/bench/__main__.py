"""`python -m rampmeter.bench ...` == `rampmeter bench ...`."""

import sys

from rampmeter.bench import main

raise SystemExit(main(sys.argv[1:]))
