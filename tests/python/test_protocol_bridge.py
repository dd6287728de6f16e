"""The protocol's specification holds for a course agent through the bridge: every
transcript of docs/protocol.md tagged `bridge` is replayed, as "Replaying a transcript" there
says, against the course's own greedy player run by tools/seahorse/course_engine.py."""

import os
import sys
from pathlib import Path

import pytest
import transcripts
from course_support import COURSE_DIR, GREEDY
from reference_data import REPO

BRIDGE = Path(REPO) / "tools" / "seahorse" / "course_engine.py"
BLOCKS = [t for t in transcripts.read_transcripts() if "bridge" in t.tags]


def test_the_specification_has_transcripts_for_the_bridge():
    assert len(BLOCKS) >= 5


@pytest.mark.parametrize("transcript", BLOCKS, ids=[t.name for t in BLOCKS])
def test_the_bridge_answers_as_the_transcript_says(transcript):
    transcripts.replay(transcript, [sys.executable, str(BRIDGE), str(GREEDY)],
                       env=dict(os.environ, DIVERCITE_COURSE_DIR=str(COURSE_DIR)))
