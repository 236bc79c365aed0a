#!/usr/bin/env python3
"""drift.py LOG... - energy conservation from mdsim thermo output: for each
log, the total energy per particle at the first and last thermo line, the
drift |E(end) - E(0)| and the largest excursion max |E(t) - E(0)|."""
import sys

for path in sys.argv[1:]:
    rows = []
    with open(path) as f:
        header = None
        for line in f:
            parts = line.split()
            if parts[:2] == ["Step", "Temp"]:
                header = parts
                continue
            if header and len(parts) == len(header):
                try:
                    rows.append([float(p) for p in parts])
                    continue
                except ValueError:
                    pass
            if header and rows:     # the thermo block has ended
                break
    if not rows:
        print(f"{path}: no thermo lines")
        continue
    e = [r[header.index("TotEng")] for r in rows]
    exc = max(abs(x - e[0]) for x in e)
    print(f"{path}: steps {int(rows[0][0])}..{int(rows[-1][0])}  E0 {e[0]:.8f}  "
          f"drift {abs(e[-1] - e[0]):.3e}  max excursion {exc:.3e} (per particle)")
