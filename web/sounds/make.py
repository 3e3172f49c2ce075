#!/usr/bin/env python3
"""Makes the match page's sounds (move, capture, low time, game start, game end) as tiny WAV
files: 8 kHz, 8-bit, mono, synthesized from sine tones with a fast decay, so that they are a
few hundred bytes to a few KB each and need no recording, licence or tool beyond Python's
standard library (`wave`). The output is the same on every run; run it from anywhere:

    python3 web/sounds/make.py

render/match.js loads js/sound.js (which plays these) only after the page is drawn, and the
files are fetched when first played, so none of this is in the match page's first download.
"""

import math
import os
import wave

RATE = 8000
HERE = os.path.dirname(os.path.abspath(__file__))


def tone(freq, ms, volume=0.6, decay=30.0):
    """A sine tone of `ms` milliseconds that dies away (`decay` per second, exponential)."""
    n = int(RATE * ms / 1000)
    return [volume * math.exp(-decay * i / RATE) * math.sin(2 * math.pi * freq * i / RATE) for i in range(n)]


def silence(ms):
    return [0.0] * int(RATE * ms / 1000)


def chord(*parts):
    """Tones played together, as long as the longest."""
    n = max(len(p) for p in parts)
    return [sum(p[i] for p in parts if i < len(p)) / len(parts) for i in range(n)]


SOUNDS = {
    # A short wooden knock: a low tone that stops at once.
    'move': tone(520, 70, decay=60.0),
    # Two knocks, the second higher: a piece taken off the board.
    'capture': tone(440, 60, decay=60.0) + silence(20) + chord(tone(700, 90, decay=45.0), tone(350, 90, decay=45.0)),
    # Three short high beeps: ten seconds left.
    'lowtime': sum((tone(1320, 60, decay=20.0) + silence(60) for _ in range(3)), []),
    # Rising: the game starts.
    'start': tone(523, 110, decay=12.0) + tone(784, 160, decay=12.0),
    # Falling: the game is over.
    'end': tone(784, 110, decay=12.0) + tone(523, 110, decay=12.0) + tone(392, 200, decay=10.0),
}


def write(name, samples):
    frames = bytes(max(0, min(255, round(128 + 127 * s))) for s in samples)
    with wave.open(os.path.join(HERE, f'{name}.wav'), 'wb') as out:
        out.setnchannels(1)
        out.setsampwidth(1)
        out.setframerate(RATE)
        out.writeframes(frames)


if __name__ == '__main__':
    for name, samples in SOUNDS.items():
        write(name, samples)
