//! Every Boardcast wire message and its two encodings (JSON text, postcard binary).
