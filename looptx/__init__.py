"""looptx: loop transformations with exact legality, C and CUDA output, and autotuning.

Public API (imported lazily so `import looptx` stays cheap):
    looptx.parse(path, defines=..., function=...) -> Program
    looptx.transform(path, recipe=None, target="c", ...) -> str   (the output file text)
"""
__version__ = "0.1.0"


def parse(path, **kw):
    from looptx.frontend.cparse import parse_file
    return parse_file(path, **kw)


def transform(path, recipe=None, **kw):
    from looptx.pipeline import transform_file
    return transform_file(path, recipe=recipe, **kw)
