from looptx.cli import main

raise SystemExit(main())
