"""The SWVP Table 1 reproduction, run at a reduced size (the full run is in the README)."""

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "swvp_table1.py"


def test_reduced_table1_runs_and_reports_every_model():
    out = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--datasets",
            "2",
            "--setups",
            "1",
            "3",
            "--sizes",
            "300",
            "100",
            "100",
            "--betas",
            "1",
            "2",
            "--max-iter",
            "3",
            "--n-jobs",
            "1",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    ).stdout
    for model in ("B-WM", "B-WMR", "A-WM", "A-WMR", "CSP"):
        rows = re.findall(rf"^\s+{model}\s+(\d+\.\d+) \((\d+\.\d+)\)", out, re.M)
        assert len(rows) == 4  # 2 setups x (unaveraged, averaged)
        assert all(0.0 < float(acc) <= 100.0 for acc, _ in rows)
    wins = re.findall(r"(\d+)/2\s+(\d+)/2 \|", out)
    assert len(wins) == 16 and all(int(w) <= 2 and int(g) <= 2 for w, g in wins)
    assert "unaveraged (the paper setting)" in out and "wall time" in out
