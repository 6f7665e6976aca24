"""Whether a build in the cache can still be used, and what interrupted builds left there.

A cached `lx_<key>.so` is trusted by its name; a file cut short (a full disk, a copy stopped
midway), overwritten or from another build would otherwise fail every point that uses it, and
those failures would be recorded as the variants' results.  `damage` reads the file's ELF
headers (no dlopen: a process that loaded a library keeps its first copy for that path) and the
dynamic symbols the source defines.
"""
from __future__ import annotations

import os
import re
import struct

# The temporary names that build_shared and cuda.build write before the rename:
# lx_<key>.c.<pid>_<tag>.c, lx_<key>.so.<pid>_<tag>.so, lx_<key>.so.<pid>_<tag>.
_TEMP = re.compile(r"^lx_[0-9a-f]+\.(?:so|c|cu)\.(\d+)_[0-9a-f]{8}(?:\.so|\.c)?$")
# a looptx harness defines its entry points as `void lx_region(` at the start of a line
_ENTRY = re.compile(r'^(?:extern "C"\s+)?(?:__host__\s+)?void\s+(lx_\w+)\s*\(', re.M)


def entry_points(source: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(_ENTRY.findall(source)))


def damage(path: str, symbols=()) -> str | None:
    """Why the shared library at `path` cannot be loaded or lacks one of `symbols`, or None."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        return e.strerror or str(e)
    try:
        return _elf_damage(data, symbols)
    except (struct.error, IndexError, ValueError):
        return "its ELF headers are cut short"


def _elf_damage(data: bytes, symbols) -> str | None:
    if len(data) < 52:
        return "file too short"
    if data[:4] != b"\x7fELF" or data[4] not in (1, 2) or data[5] not in (1, 2):
        return "invalid ELF header"
    wide = data[4] == 2
    e = "<" if data[5] == 1 else ">"
    if wide:
        phoff, shoff = struct.unpack_from(e + "QQ", data, 0x20)
        phentsize, phnum, shentsize, shnum = struct.unpack_from(e + "HHHH", data, 0x36)
    else:
        phoff, shoff = struct.unpack_from(e + "II", data, 0x1C)
        phentsize, phnum, shentsize, shnum = struct.unpack_from(e + "HHHH", data, 0x2A)
    if phoff + phentsize * phnum > len(data) or shoff + shentsize * shnum > len(data) or not phnum:
        return "file too short"
    sections = []
    for i in range(shnum):
        at = shoff + i * shentsize
        if wide:
            _, kind, _, _, off, size, link, _, _, entsize = struct.unpack_from(e + "IIQQQQIIQQ", data, at)
        else:
            _, kind, _, _, off, size, link, _, _, entsize = struct.unpack_from(e + "IIIIIIIIII", data, at)
        if kind != 8 and off + size > len(data):            # 8: SHT_NOBITS (.bss)
            return "file too short"
        sections.append((kind, off, size, link, entsize))
    if not symbols:
        return None
    defined = set()
    for kind, off, size, link, entsize in sections:
        if kind != 11 or not entsize:                      # 11: SHT_DYNSYM
            continue
        _, stroff, strsize, _, _ = sections[link]
        strings = data[stroff:stroff + strsize]
        for at in range(off + entsize, off + size, entsize):   # entry 0 is the null symbol
            name = struct.unpack_from(e + "I", data, at)[0]
            shndx = struct.unpack_from(e + "H", data, at + (6 if wide else 14))[0]
            if shndx:
                defined.add(strings[name:strings.index(b"\0", name)].decode(errors="replace"))
    missing = [s for s in symbols if s not in defined]
    return f"undefined symbol: {missing[0]}" if missing else None


def remove_orphan_temps(folder: str) -> None:
    """Remove the temporary outputs of builds whose process is gone (a worker killed with an
    interrupted search): nothing renames them into place any more."""
    from looptx.runtime.worker import _alive
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        m = _TEMP.match(name)
        if m is None or _alive(int(m.group(1))):
            continue
        try:
            os.unlink(os.path.join(folder, name))
        except OSError:
            pass

