# ===- torch_support.py - What the PyTorch peers of the bench share -------=== #
#
# bench/torch_peer.py (filter3d against conv3d) and bench/torch_layer.py
# (stencilad.torch layers against conv2d/conv3d) import PyTorch and the
# build tree's stencilad the same way, and write their tables the same way.
#
# ===----------------------------------------------------------------------=== #

import json
import os
import sys


def import_torch(tool):
    """torch, or an exit saying how to get it."""
    try:
        import torch
    except ImportError as e:
        sys.exit("%s: PyTorch is required (Debian: apt-get install "
                 "python3-torch): %s" % (tool, e))
    return torch


def import_stencilad(tool, build_dir):
    """The build tree's stencilad, or an exit saying to build it."""
    sys.path.insert(0, os.path.join(build_dir, "python"))
    try:
        import stencilad
    except ImportError as e:
        sys.exit("%s: stencilad not found in %s/python (build the project "
                 "first): %s" % (tool, build_dir, e))
    return stencilad


def write_outputs(table, markdown_path, json_path, summary):
    """Prints the table; writes it to `markdown_path` and `summary` (a
    function giving the JSON object) to `json_path`, where given."""
    print()
    print(table)
    if markdown_path:
        with open(markdown_path, "w") as out:
            out.write(table)
    if json_path:
        with open(json_path, "w") as out:
            json.dump(summary(), out, indent=1)
            out.write("\n")
