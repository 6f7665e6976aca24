"""`pragma` steps with HLS loop directives (Rosetta's dotProduct: PIPELINE on i, UNROLL on j,
then a tile of i) were printed before the loop, inside the body of the loop around it, where
Vitis/Vivado HLS apply them to that outer loop (pipelining ii, unrolling i and j fully): they
open the body of their own loop."""
from pathlib import Path

from conftest import run_cli

DATA = Path(__file__).resolve().parent / "data" / "hls"


def test_an_hls_directive_opens_its_loops_body():
    rc, out, err = run_cli("transform", DATA / "dot_product.c", "--function", "dotProduct", "--recipe",
                           DATA / "pipeline_tile.yaml")
    assert rc == 0, err
    assert ("i <= lx_min(4 * ii + 3, NUM_FEATURES / 32 - 1); i++) {\n        #pragma HLS PIPELINE II=1\n"
            "        for (int j = 0; j < 29; j += 4) {\n          #pragma HLS UNROLL factor=4\n") in out, out
    rc, out, err = run_cli("run", DATA / "dot_product.c", "--function", "dotProduct", "--recipe",
                           DATA / "pipeline_tile.yaml", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


def test_function_scope_hls_directives_stay_with_the_region():
    """`#pragma HLS array_partition` at the top of a --function body belongs to no loop: it was
    dropped with a note to put it back on a parallel loop."""
    rc, out, err = run_cli("transform", DATA / "dot_product.c", "--function", "dotProduct")
    assert rc == 0, err
    body = out[out.index("FeatureType dotProduct("):]
    body = body[:body.index("\n}\n")]
    assert body.count("#pragma HLS array_partition variable=param cyclic factor=unroll_factor") == 1, body
    assert body.count("#pragma HLS array_partition variable=feature cyclic factor=unroll_factor") == 1, body
    assert "array_partition" not in err and "'#pragma HLS PIPELINE II=1' inside the region is dropped" in err, err
