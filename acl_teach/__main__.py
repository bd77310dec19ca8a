"""``python -m acl_teach`` is the ``acl-teach`` command."""
import sys

from .cli import main

sys.exit(main())
