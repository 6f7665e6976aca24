"""GPU baseline benchmark (run on a GPU machine): looptx-generated kernels against cuBLAS /
torch.einsum measured in the same run on the same inputs.

  * fp64 matmul 4096^3, recipes/cuda/matmul_4096.yaml (shared + registers + unroll) vs cuBLAS
    (torch.addmm);
  * TCCG abcd-ebad-ce (72/72/24/72/72), recipes/cuda/tccg_abcd_ebad_ce.yaml vs torch.einsum;
  * NWChem sd_t_d1_1 at T=16, recipes/cuda/sd_t_d1_1.yaml vs torch.einsum.

Every looptx result is checked against the baseline's (relative error, float64).  Prints a table
of median kernel times, GFLOP/s and ratios (baseline time / looptx time: > 1 means looptx is
faster); with $OUT set, writes gpu_bench.json there."""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402


def looptx_case(session, file, recipe, sizes, reps):
    from looptx.codegen.cuda import cu_file, generate, launch_spec
    from looptx.pipeline import load, region_name, variants_for
    from looptx.recipe.schema import load_file
    from looptx.runtime.cuda import build
    from looptx.runtime.harness import RegionSignature, make_inputs
    program = load(str(ROOT / file), defines=sizes)
    variant = variants_for(program, load_file(str(ROOT / recipe)))[0][0]
    rc = generate(variant, region_name(program, 0))
    spec = launch_spec(rc)
    b = build(cu_file(rc, "", dict(program.int_macros)), spec)
    if b.status != "ok":
        raise SystemExit(f"{file}: {b.error}")
    sig = RegionSignature.from_scop(program.scops[0], program.int_macros, sizes)
    inputs = make_inputs(sig, 7)
    res = session.run(b, inputs, dict(sig.values), written=set(sig.written), repetitions=reps, warmup=3)
    if res.status != "ok":
        raise SystemExit(f"{file}: {res.status}: {res.error}")
    return inputs, res, spec


def torch_time(fn, reps):
    import torch
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        e.synchronize()
        times.append(s.elapsed_time(e) * 1e-3)
    return statistics.median(times)


def rel_err(a, b) -> float:
    a, b = np.asarray(a, dtype=np.float64).ravel(), np.asarray(b, dtype=np.float64).ravel()
    return float(np.max(np.abs(a - b)) / max(np.max(np.abs(b)), 1e-300))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--n", type=int, default=4096, help="matmul size")
    args = ap.parse_args()
    import importlib.util
    missing = [m for m in ("torch", "pycuda") if importlib.util.find_spec(m) is None]
    if missing:
        sys.exit(f"gpu_bench.py: needs an NVIDIA GPU with torch and pycuda (pip install 'looptx[cuda]' torch); "
                 f"missing: {', '.join(missing)}")
    import torch
    from looptx.runtime.cuda import CudaSession
    session = CudaSession()
    dev = torch.device("cuda")
    rows = []

    # --- matmul -------------------------------------------------------------------------------
    n = args.n
    sizes = {"NI": n, "NJ": n, "NK": n}
    inputs, res, spec = looptx_case(session, "tests/kernels/matmul.c", "recipes/cuda/matmul_4096.yaml", sizes, args.reps)
    A, B, C = (torch.from_numpy(inputs[x].reshape(n, n)).to(dev) for x in "ABC")
    out = torch.empty_like(C)
    t_base = torch_time(lambda: torch.addmm(C, A, B, out=out), args.reps)
    err = rel_err(res.outputs["C"].reshape(n, n), out.cpu().numpy())
    rows.append(("matmul fp64 4096^3", 2.0 * n ** 3, statistics.median(res.kernel_times), t_base,
                 "cuBLAS (torch.addmm)", err))

    # --- TCCG abcd-ebad-ce --------------------------------------------------------------------
    ext = {"NA": 72, "NB": 72, "NC": 24, "ND": 72, "NE": 72}
    inputs, res, spec = looptx_case(session, "tests/kernels/tccg-abcd-ebad-ce.c",
                                    "recipes/cuda/tccg_abcd_ebad_ce.yaml", ext, args.reps)
    a, b, c, d, e = ext["NA"], ext["NB"], ext["NC"], ext["ND"], ext["NE"]
    At = torch.from_numpy(inputs["A"].reshape(d, a, b, e)).to(dev)
    Bt = torch.from_numpy(inputs["B"].reshape(e, c)).to(dev)
    Ct = torch.from_numpy(inputs["C"].reshape(d, c, b, a)).to(dev)
    ein = lambda: torch.einsum("dabe,ec->dcba", At, Bt)
    t_base = torch_time(ein, args.reps)
    t_base_acc = torch_time(lambda: Ct + ein(), args.reps)
    err = rel_err(res.outputs["C"].reshape(d, c, b, a), (Ct + ein()).cpu().numpy())
    flops = 2.0 * a * b * c * d * e
    rows.append(("TCCG abcd-ebad-ce fp64", flops, statistics.median(res.kernel_times), t_base,
                 "torch.einsum", err))
    rows.append(("  (baseline incl. C += )", flops, statistics.median(res.kernel_times), t_base_acc,
                 "torch.einsum + add", err))

    # --- NWChem sd_t_d1_1 -----------------------------------------------------------------------
    T = 16
    ext = {k: T for k in ("P4", "P5", "P6", "H1", "H2", "H3", "H7")}
    inputs, res, spec = looptx_case(session, "tests/kernels/sd_t_d1_1.c", "recipes/cuda/sd_t_d1_1.yaml",
                                    ext, args.reps)
    t2 = torch.from_numpy(inputs["t2"].reshape(T, T, T, T)).to(dev)      # [h1][p5][p4][h7]
    v2 = torch.from_numpy(inputs["v2"].reshape(T, T, T, T)).to(dev)      # [h7][p6][h2][h3]
    t3 = torch.from_numpy(inputs["t3"].reshape(T, T, T, T, T, T)).to(dev)  # [p4][p5][p6][h1][h2][h3]
    ein = lambda: torch.einsum("abcd,defg->cbeafg", t2, v2)
    t_base = torch_time(ein, args.reps)
    t_base_acc = torch_time(lambda: t3 - ein(), args.reps)
    err = rel_err(res.outputs["t3"].reshape((T,) * 6), (t3 - ein()).cpu().numpy())
    flops = 2.0 * T ** 7
    rows.append(("NWChem sd_t_d1_1 T=16 fp64", flops, statistics.median(res.kernel_times), t_base,
                 "torch.einsum", err))
    rows.append(("  (baseline incl. t3 -= )", flops, statistics.median(res.kernel_times), t_base_acc,
                 "torch.einsum + sub", err))

    gpu = session.describe()
    print(f"GPU: {gpu}; torch {torch.__version__}; median of {args.reps} runs; ratio = baseline / looptx")
    print(f"{'case':<30}{'looptx ms':>11}{'GF/s':>9}{'baseline ms':>13}{'GF/s':>9}{'ratio':>8}  {'baseline':<22}{'rel err':>9}")
    out_rows = []
    for name, flops, t, tb, base, err in rows:
        print(f"{name:<30}{t * 1e3:>11.3f}{flops / t * 1e-9:>9.1f}{tb * 1e3:>13.3f}{flops / tb * 1e-9:>9.1f}"
              f"{tb / t:>8.2f}  {base:<22}{err:>9.1e}")
        out_rows.append({"case": name, "flops": flops, "looptx_s": t, "baseline_s": tb, "baseline": base,
                         "ratio": tb / t, "rel_err": err})
    if os.environ.get("OUT"):
        Path(os.environ["OUT"], "gpu_bench.json").write_text(json.dumps({"gpu": gpu, "rows": out_rows}, indent=2))


if __name__ == "__main__":
    main()
