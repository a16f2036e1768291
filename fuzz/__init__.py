"""Coverage-guided fuzzing of the reader link: ``make fuzz`` (atheris), and a corpus replay.

Three targets, each a plain function of one ``bytes`` input in ``fuzz/targets.py``:

* ``codec`` -- the host frame codec, ``firmware_bridge.protocol.Decoder``: any bytes in any
  chunking decode to exactly the frames a simple reference splitter finds, every frame
  re-encodes to the bytes it came from, every non-empty segment that is not a frame is counted
  once (garbage, CRC error, truncated or malformed), and the chunking changes nothing.
* ``serial`` -- the serial backend's byte handling, ``SerialBackend._handle_bytes`` (what its
  reader thread calls with every read; no port is opened): it never raises, its link counters
  are the decoder's, and every Sighting it emits comes from a TAG_PRESENT / TAG_GONE frame that
  passed its CRC (no sighting is invented from garbage; presence alternates per tag).
* ``firmware`` -- the bridge firmware's decoding of host commands, ``Bridge.service_host`` and
  ``handle_frame`` on CPython with emulated MFRC522 readers: a step never raises, everything it
  sends is a well-formed frame, and each host COMMAND (and each frame that passed its CRC but
  does not fit its type) gets exactly one answer, in order: ACK or ERROR with its sequence
  number, or the HELLO of a resync for SYNC.

The first input byte is a control byte: its low six bits choose the chunk size the bytes arrive
in; bit 6 gives the serial backend two configured reader ids (frames for other readers must be
counted and dropped) instead of ids that grow; with the top bit set, the harness first repairs
every segment's LEN and CRC, so the fuzzer gets past the CRC and explores what messages say.

Running: ``make fuzz`` (``FUZZ_SECONDS`` per target, 60 by default) runs
``python -m fuzz TARGET`` for each target on ``fuzz/corpus/TARGET``, then cuts the corpus down
to the fewest inputs with the same coverage (libFuzzer's ``-set_cover_merge=1``); the hand-made
``seed-*`` inputs (``python -m fuzz.seeds``) stay. A crash leaves ``crash-*`` in
``var/fuzz/TARGET/``; copy it into the corpus once fixed, so that ``tests/fuzz/test_corpus.py``
replays it in ``make test`` (no atheris needed there).
"""
