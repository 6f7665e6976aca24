"""Probe 51 (integer and bit-level kernels: x264, libjpeg, tiny-AES, ChaCha, CMSIS-DSP): the
region's #define/#undef lines repeated after it; steps legal at the #defines' file values;
typedef'd array and pointer types; indexes read through casts and offset by #defined sizes;
pure helpers with `1U` literals and helpers that return a table element; `do { } while (0)`,
comma lists of updates and `(p + e)[k]`."""
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import cli_process as cli

DATA = Path(__file__).resolve().parent / "data" / "probe51"
needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc on PATH (CI has it): builds and runs the kernels")


def _ok(*args):
    p = cli("run", *args, "--repetitions", "1", cwd=DATA)
    assert p.returncode == 0 and ": ok" in p.stdout, p.stdout + p.stderr


@needs_gcc
@pytest.mark.parametrize("name", ["undef_min.c", "undef_ifndef.c"])
def test_the_regions_macro_lines_follow_it(tmp_path, name):
    # x264's `#define SRC(x) ...` / `#undef SRC` around each loop: the code after the region
    # must see the macros as the file leaves them
    out = tmp_path / "out.c"
    p = cli("transform", name, "--function", "first", "-o", out, cwd=DATA)
    assert p.returncode == 0, p.stderr
    g = subprocess.run(["gcc", "-Wall", "-Werror", "-c", str(out), "-o", str(tmp_path / "o.o")],
                       capture_output=True, text=True)
    assert g.returncode == 0, g.stderr + out.read_text()
    text = out.read_text()
    body = text[text.index("void first"):text.index("void second")]
    assert body.rstrip().endswith("#undef SRC\n#undef DST\n}"), body


@needs_gcc
@pytest.mark.parametrize("name, function, recipe, macro", [
    ("define_stride_min.c", "add_rows", "r_define_stride.yaml", "FDEC_STRIDE != 32"),  # rows 32 apart, not 1
    ("define_offset_min.c", "start", "r_define_offset.yaml", "R_Y_OFF != 0"),          # table sections
])
def test_a_step_legal_at_the_defines_values(tmp_path, name, function, recipe, macro):
    out = tmp_path / "out.c"
    p = cli("transform", name, "--function", function, "--recipe", recipe, "-o", out, cwd=DATA)
    assert p.returncode == 0, p.stderr
    assert "the step is legal at the #defines' values" in p.stderr, p.stderr
    assert f"#if {macro}\n#error" in out.read_text(), out.read_text()
    _ok(name, "--function", function, "--recipe", recipe)


@needs_gcc
@pytest.mark.parametrize("args", [
    ("typedef_arr_ptr.c", "--function", "AddRoundKey"),          # `typedef uint8_t state_t[4][4]; state_t *state`
    ("typedef_arr_val.c", "--function", "AddRoundKey"),
    ("jsamparray.c", "--function", "f", "-D", "n=5", "-D", "m=7"),  # libjpeg's JSAMPARRAY of JSAMPROW
    ("idx_cast_min.c", "--function", "f", "-D", "num_cols=100"),  # r = (int)(inptr[col]); ctab[r + 0]
    ("define_offset_lookup.c", "--function", "conv"),              # ctab[g + G_Y_OFF]
    ("ssat_J.c", "--function", "f", "-D", "n=100"),                # CMSIS __SSAT: (1U << (sat - 1U)) - 1U
    ("getsbox_min.c", "--function", "SubBytes"),                   # return sbox[num];
    ("dowhile_min.c", "--function", "f"),                          # do { ... } while (0)
    ("chacha.c", "--function", "chacha_block", "-D", "ROUNDS=20"),  # (a += b, d ^= a, ...)
    ("chacha_ref_b.c", "--function", "salsa20_wordtobyte"),       # (output + 4 * i)[0]
], ids=lambda a: a[0])
def test_idioms_of_integer_kernels_run(args):
    _ok(*args)


@needs_gcc
def test_a_table_read_at_a_masked_byte(tmp_path):
    # CRC-32 (PNG Annex D): crc_table[(c ^ buf[s][n]) & 0xff], any of its 256 elements
    _ok("crc_min.c", "--function", "crc_streams")
    src = (DATA / "crc_min.c").read_text()
    (tmp_path / "cast.c").write_text(src.replace("(c ^ buf[s][n]) & 0xff", "(unsigned char)(c ^ buf[s][n])"))
    (tmp_path / "omp.yaml").write_text("steps:\n  - omp_for: {stmt: 1, loop: s}\n")
    p = cli("run", "cast.c", "--function", "crc_streams", "--recipe", "omp.yaml", "--cflags", "-O2 -fopenmp",
            "--repetitions", "1", cwd=tmp_path)
    assert p.returncode == 0 and ": ok" in p.stdout, p.stdout + p.stderr
    (tmp_path / "small.c").write_text(src.replace("crc_table[256]", "crc_table[200]"))
    p = cli("run", "small.c", "--function", "crc_streams", "--repetitions", "1", cwd=tmp_path)
    assert p.returncode == 2 and p.stderr.startswith("small.c:12:11: error: 'crc_table[(c ^ buf[s][n]) & 0xff]' "
                                                     "may reach element 255 of 'crc_table', which has 200"), p.stderr


@needs_gcc
def test_a_constant_that_casts_to_a_typedef_keeps_its_name(tmp_path):
    # libjpeg's `typedef long INT32; #define FIX_0_765366865 ((INT32) 6270)`
    out = tmp_path / "out.c"
    p = cli("transform", "jfdctint_idx.c", "--function", "jpeg_fdct_islow", "-o", out, cwd=DATA)
    assert p.returncode == 0, p.stderr
    text = out.read_text()
    region = text[text.index("jpeg_fdct_islow"):]
    assert "* FIX_0_765366865" in region and "(INT32)6270" not in region, region
    _ok("jfdctint_idx.c", "--function", "jpeg_fdct_islow")
