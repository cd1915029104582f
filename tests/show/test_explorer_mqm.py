"""mtlearn/show/explorers/mqm.py: MqmExplorer and its scatter, with and without Google's MQM data.

Without the data the explorer shows the shipped tables and says where the data would be; with it (skipped
where ../shared is absent) the sentence scores it computes give the shipped within-system correlations, and
the texts panel shows the segment's translation and every error the experts marked.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from repo_paths import REPO

from mtlearn.show.explorers.mqm import ABSENT, MqmExplorer, load_mqm_data
from mtlearn.show.plots import plot_mqm_scatter
from mtlearn.study.mqm import DATA_ENV, MqmData, read_mqm
from mtlearn.study.mqm_tables import load_mqm_tables

TABLES = load_mqm_tables()


@pytest.fixture(scope="module")
def data() -> MqmData:
    env = os.environ.get(DATA_ENV)
    folder = Path(env) if env else REPO.parent / "shared" / "data" / "mqm_ted_zhen"
    if not (folder / "mqm_ted_zhen.tsv").is_file():
        pytest.skip(f"MQM data not found at {folder} (it sits in ../shared beside the repository)")
    return read_mqm(folder / "mqm_ted_zhen.tsv")


def test_without_the_data_the_tables_show_and_a_note_says_where_the_data_would_be():
    x = MqmExplorer("chrf", "refB", "kendall", data=None, tables=TABLES)
    worst = TABLES.disagreements("refB", "chrf")[0]
    assert (x.view.system, x.view.seg_id) == (worst["worse"], int(worst["seg_id"]))
    assert x.error is None and x.notes == [ABSENT] and "../shared/data/mqm_ted_zhen" in x.message_html.value
    for grouping in ("none", "system", "item"):
        value = TABLES.segment("refB", "chrf", "kendall", grouping).value
        assert f'data-name="value-{grouping}" data-value="{value!r}"' in x.summary_html.value
    shipped = TABLES.within("refB", "chrf", worst["worse"]).kendall
    assert f'data-name="within-system-shipped" data-value="{shipped!r}"' in x.summary_html.value
    assert x.view.within is None and x.texts_html.value == "" and x.image.value == b"" and x.figure is None
    x.set_inputs(statistic="accuracy_eq")
    assert list(x.view.rows) == ["item"] and x.view.within_shipped is None
    assert f'data-value="{TABLES.constant.value!r}"' in x.summary_html.value


def test_the_browser_sets_only_an_index_within_the_options():
    x = MqmExplorer(data=None, tables=TABLES)
    before = x.system_input.value
    x.system_input.set_state({"index": 10 ** 6})
    assert x.system_input.value == before and x.view.system == before
    x.system_input.set_state({"options": ["evil"], "index": 0})  # the options stay the explorer's
    assert list(x.system_input.options) == list(TABLES.mt_systems)
    assert x.view.system == TABLES.mt_systems[0]
    x.metric_input.set_state({"index": -1})
    assert x.metric_input.value == "bleu" and x.error is None


@pytest.mark.parametrize("kwargs, message", [
    ({"metric": "comet"}, "metric: unknown value 'comet'"),
    ({"reference": "refC"}, "reference: unknown value 'refC'"),
    ({"statistic": "spearman"}, "statistic: unknown value 'spearman'"),
    ({"system": "ref"}, "system: unknown value 'ref'"),
    ({"seg_id": 10 ** 9}, "seg_id: no segment 1000000000"),
])
def test_bad_arguments_name_the_argument(kwargs, message):
    with pytest.raises(ValueError, match=message):
        MqmExplorer(data=None, tables=TABLES, **kwargs)


def test_a_missing_data_folder_reads_as_absent(tmp_path):
    assert load_mqm_data(tmp_path) is None


def test_the_scatter_rings_the_point_and_names_its_axes():
    fig = plot_mqm_scatter([0, -1, -5, 0], [0.5, 0.4, 0.2, 0.7], point=(-5, 0.2), metric="BLEU", system="A")
    ax = fig.axes[0]
    dots, ring = ax.collections
    assert len(dots.get_offsets()) == 4 and [tuple(p) for p in ring.get_offsets()] == [(-5.0, 0.2)]
    assert all(abs(x - h) <= 0.15 for (x, _), h in zip(dots.get_offsets(), [0, -1, -5, 0]))
    assert ax.get_ylabel() == "BLEU of the sentence" and ax.get_title() == "A: 4 segments"


def test_with_the_data_the_sentence_scores_give_the_shipped_within_system_correlations(data):
    x = MqmExplorer("bleu", "ref", tables=TABLES, data=data)
    v = x.view
    assert x.error is None and x.notes == []
    assert v.within == pytest.approx(TABLES.within("ref", "bleu", v.system).pearson, abs=1e-6)
    item = data.item(v.system, v.seg_id)
    assert v.point == (float(item.score), v.scores[data.seg_ids.index(v.seg_id)])
    assert float(item.score) == float(TABLES.disagreements("ref", "bleu")[0]["mqm_worse"])
    for e in item.errors:
        assert e.category in x.texts_html.value
    assert x.image.value[:4] == b"\x89PNG"
    x.set_inputs(metric="ter", statistic="kendall", system="SMU")  # an error rate: negated, as in the tables
    assert x.view.within == pytest.approx(TABLES.within("ref", "ter", "SMU").kendall, abs=1e-6)
    x.segment_input.index = 5
    seg = data.seg_ids[5]
    assert x.view.seg_id == seg and x.view.point[0] == float(data.item("SMU", seg).score)
