//! Frisian draughts under the official rules (2011): positions, legal moves, FEN, notation,
//! PDN and perft. Pure: no I/O, no allocation per search node.
