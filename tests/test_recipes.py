"""The recipes reproduce the preprocessing of the programs they are named after, byte for byte."""
import os

import numpy as np
import pytest
from PIL import Image

from acl_teach.toolchain import images, recipes
from helpers import ROOT

PHOTOS = [os.path.join(ROOT, "data", "images", n) for n in ("chelsea.png", "coffee.png", "rocket.jpg")]


def caffe_sample_style(path):
    """The official Caffe ResNet-50 sample's steps: resize 256x256 (Pillow's default filter), centre 224,
    RGB -> BGR, fp16, minus B104/G117/R123, NCHW."""
    with Image.open(path) as img:
        pixels = np.array(img.convert("RGB").resize((256, 256)))
    pixels = pixels[16:240, 16:240, ::-1].astype(np.float16)
    pixels -= np.array([104, 117, 123], np.float16)
    return pixels.transpose(2, 0, 1)[np.newaxis]


@pytest.mark.parametrize("path", PHOTOS, ids=os.path.basename)
def test_caffe_resnet50_recipe_matches_the_sample(path):
    ours = images.preprocess(path, recipes.CAFFE_RESNET50, (1, 3, 224, 224), np.float16)
    assert ours.tobytes() == caffe_sample_style(path).tobytes()


def test_bilinear_would_differ():
    """The test above can fail: the old bilinear filter gives other bytes."""
    bilinear = dict(recipes.CAFFE_RESNET50, resample="bilinear")
    ours = images.preprocess(PHOTOS[1], bilinear, (1, 3, 224, 224), np.float16)
    assert ours.tobytes() != caffe_sample_style(PHOTOS[1]).tobytes()
