#!/bin/bash
# A sanitizer sample on a GPU host: COUNT default programs from SEED (batches of 10) built by
# nvcc -O3, each binary run under compute-sanitizer memcheck, initcheck, racecheck and synccheck,
# and every printed checksum compared with the sidecar's prediction (bench/RESULTS.md,
# "Generator reach"). Needs CUDIFF_BIN (a cudiff binary) and OUT (where the summary goes).
CUDIFF_BIN=${CUDIFF_BIN:-cudiff}; OUT=${OUT:-.}
W=/tmp/san; rm -rf $W; mkdir -p $W; cd $W
$CUDIFF_BIN generate --seed ${SEED:-5000} --count ${COUNT:-200} --batch 10 --out . > /dev/null
ls *.cu | xargs -P 16 -I{} sh -c '/usr/local/cuda/bin/nvcc -std=c++17 --extended-lambda -arch=sm_90 -O3 {} -o {}.bin 2> {}.err || echo "build failed {}"'
CS=/usr/local/cuda/bin/compute-sanitizer
ls *.bin | xargs -P 8 -I{} sh -c "$CS --tool memcheck --error-exitcode 9 ./{} > {}.memcheck 2>&1; echo \$? > {}.memcheck.rc; $CS --tool initcheck --error-exitcode 9 ./{} > {}.initcheck 2>&1; echo \$? > {}.initcheck.rc; $CS --tool racecheck --error-exitcode 9 ./{} > {}.racecheck 2>&1; echo \$? > {}.racecheck.rc; $CS --tool synccheck --error-exitcode 9 ./{} > {}.synccheck 2>&1; echo \$? > {}.synccheck.rc"
python3 - <<'PY'
import glob, json, re
bins = sorted(glob.glob('*.cu.bin'))
bad = {t: [] for t in ('memcheck', 'initcheck', 'racecheck', 'synccheck')}
mismatch = []
kernels = 0
for b in bins:
    for t in bad:
        rc = open(f'{b}.{t}.rc').read().strip()
        if rc != '0': bad[t].append((b, rc))
    side = json.load(open(b[:-7] + '.json'))
    want = {k['name']: k['expected_checksum'] for k in side['kernels']}
    got = dict(re.findall(r'^checksum (\S+) ([0-9a-f]{16})$', open(f'{b}.memcheck').read(), re.M))
    kernels += len(want)
    for name, value in want.items():
        if got.get(name) != value: mismatch.append((b, name, got.get(name), value))
print(f'{len(bins)} binaries (200 programs in batches of 10), {kernels} kernels')
for t, l in bad.items(): print(f'{t}: {len(l)} binaries with errors {l[:5]}')
print(f'checksums off the prediction under memcheck: {len(mismatch)} {mismatch[:10]}')
PY
for t in memcheck initcheck racecheck synccheck; do grep -l "ERROR SUMMARY: [1-9]" *.$t 2>/dev/null | head -3 | while read f; do echo "== $f"; grep -m5 -E "Invalid|Uninitialized|hazard|ERROR" $f; done; done
