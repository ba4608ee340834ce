# Compares a campaign run as shards (s0.db, s1.db, merged.db) with the same campaign
# unsharded (whole.db): seeds, buckets, counts, and each one's rate. Usage: compare.py WORKDIR
import sqlite3, sys
W = sys.argv[1] if len(sys.argv) > 1 else "/tmp/cudiff-gpu-shards"
def q(db, sql):
    return sqlite3.connect(f"file:{W}/{db}?mode=ro", uri=True).execute(sql).fetchall()
for db in ["s0.db", "s1.db", "merged.db", "whole.db"]:
    (tests, findings, started, ended, host, gpus), = q(db, "SELECT tests, findings, started, ended, host, gpus FROM campaigns")
    nb = q(db, "SELECT count(*) FROM buckets")[0][0]
    print(f"{db:10} tests {tests} findings {findings} buckets {nb} wall {ended-started:.1f} s "
          f"({tests/(ended-started):.2f} tests/s) gpus [{gpus}]")
seeds = lambda db: {r[0] for r in q(db, "SELECT seed FROM tests")}
s0, s1, m, w = seeds("s0.db"), seeds("s1.db"), seeds("merged.db"), seeds("whole.db")
print("seeds: shard0", len(s0), "shard1", len(s1), "overlap", len(s0 & s1), "merged == whole:", m == w, len(m))
bk = lambda db: dict(q(db, "SELECT key, count FROM buckets"))
bm, bw = bk("merged.db"), bk("whole.db")
print("buckets merged", len(bm), "whole", len(bw), "same keys:", set(bm) == set(bw), "same counts:", bm == bw)
for key in sorted(set(bm) ^ set(bw)):
    db = "merged.db" if key in bm else "whole.db"
    print("  only in", db, q(db, f"SELECT kind, side, title, count FROM buckets WHERE key = '{key}'"))
for key in sorted(k for k in set(bm) & set(bw) if bm[k] != bw[k]):
    print("  count differs", key[:12], bm[key], bw[key], q("merged.db", f"SELECT kind, title FROM buckets WHERE key = '{key}'"))
fm = {r[0] for r in q("merged.db", "SELECT t.seed FROM findings f JOIN tests t ON t.id = f.test_id")}
fw = {r[0] for r in q("whole.db", "SELECT t.seed FROM findings f JOIN tests t ON t.id = f.test_id")}
print("seeds with findings: merged", len(fm), "whole", len(fw), "same:", fm == fw, "only merged", sorted(fm - fw), "only whole", sorted(fw - fm))
