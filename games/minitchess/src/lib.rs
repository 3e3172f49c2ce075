//! MinitChess, the 5x6 chess variant of the "Lousy Chess" module, and its five engines.
