#!/usr/bin/env python3
"""Compare a run's results.json with expected.json (in this script's folder).

usage: check.py [DIR]      (DIR holds results.json; default: this script's folder)
The checks are described in ../check_expected.py.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from check_expected import check  # noqa: E402

check(HERE, sys.argv)
