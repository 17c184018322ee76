import sys

from cursos.cli import main

sys.exit(main())
