from rampmeter.cli import main

raise SystemExit(main())
