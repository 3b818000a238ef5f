import sys

from pcfserver.cli import main

sys.exit(main())
