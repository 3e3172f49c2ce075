//! Shared helpers for the integration tests: the reference data copied from `shared/frisian`.

#![allow(dead_code)]

use serde_json::Value;

pub fn data(name: &str) -> String {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

pub fn jsonl(name: &str) -> Vec<Value> {
    data(name)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `(result, reason)` of a status object.
pub fn status_of(v: &Value) -> (String, Option<String>) {
    (
        v["result"].as_str().unwrap().to_string(),
        v["reason"].as_str().map(str::to_string),
    )
}

pub fn status_pair(status: frisian::Status) -> (String, Option<String>) {
    (status.result_word().to_string(), status.reason())
}
