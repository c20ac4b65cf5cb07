#!/usr/bin/env python3
"""Compare a run's results.json with the loose expectations of expected.json.

usage: check.py [--present] RESULTS.json EXPECTED.json  (see ../check_ranges.py)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import check_ranges  # noqa: E402

sys.exit(check_ranges.main())
