"""Issue 38: ParameterMixing's set-up (the time before its first round) with a large
development set, Brown, raw words (``TokenFeatures()``), beam 4, 2 shards on 2 loky
workers; 10,000 sentences to train, the other 11,000 held out.

Run: ``python setup_dev.py LABEL`` (the label starts each line).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # benchmarks/

from _setup_time import brown_dev_setups

if __name__ == "__main__":
    brown_dev_setups(sys.argv[1], tokens=True, max_iter=2)
