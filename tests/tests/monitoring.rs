//! The monitoring shipped in `docs/monitoring/` (issue 28, item 10): Prometheus alert rules
//! and a Grafana dashboard. Their queries must name only metrics the server exports — a rule
//! or a panel over a metric that does not exist is silent exactly when it is needed. The
//! server's metric names are its string literals `"boardcast_…"` (every metric is recorded
//! under a named constant); a histogram's series add `_bucket`, `_sum` and `_count`.
//! `promtool check rules` checks the rules' syntax in `.ci/run`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace root")
        .to_owned()
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir)
        .expect("a source directory")
        .flatten()
    {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, found);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            found.push(path);
        }
    }
}

/// Every `boardcast_[a-z0-9_]+` in `text` (a metric name's shape).
fn metric_names(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut rest = text;
    while let Some(at) = rest.find("boardcast_") {
        let name: String = rest[at..]
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
            .collect();
        rest = &rest[at + name.len()..];
        names.insert(name);
    }
    names
}

/// The names the server records metrics under: its string literals that are a metric name
/// whole (`"boardcast_moves_total"`), not SQL that mentions a function (`"boardcast_alive(…"`).
fn exported() -> BTreeSet<String> {
    let mut files = Vec::new();
    sources(&repo().join("server/src"), &mut files);
    let mut names = BTreeSet::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a source file");
        for name in metric_names(&text) {
            if text.contains(&format!("\"{name}\"")) {
                names.insert(name);
            }
        }
    }
    names
}

/// The names in `text` that are no series of an exported metric.
fn unknown(text: &str, exported: &BTreeSet<String>) -> Vec<String> {
    metric_names(text)
        .into_iter()
        .filter(|name| {
            let base = ["_bucket", "_sum", "_count"]
                .iter()
                .find_map(|suffix| name.strip_suffix(suffix))
                .filter(|base| exported.contains(*base));
            base.is_none() && !exported.contains(name)
        })
        .collect()
}

fn read(path: &str) -> String {
    std::fs::read_to_string(repo().join(path)).unwrap_or_else(|err| panic!("{path}: {err}"))
}

#[test]
fn the_server_names_its_metrics_as_the_monitoring_files_expect() {
    let exported = exported();
    // The scan finds what the server records (a few the files rely on), and nothing else.
    for name in [
        "boardcast_moves_total",
        "boardcast_move_ack_seconds",
        "boardcast_refusals_total",
        "boardcast_heap_in_use_bytes",
        "boardcast_bus_dropped_total",
        "boardcast_cluster_takeovers_total",
    ] {
        assert!(exported.contains(name), "{name} not found in {exported:?}");
    }
    assert!(
        !exported.contains("boardcast_alive"),
        "an SQL function is no metric"
    );
}

#[test]
fn the_alert_rules_name_only_exported_metrics_and_cover_the_faults_operators_watch() {
    let rules = read("docs/monitoring/boardcast-alerts.yml");
    let unknown = unknown(&rules, &exported());
    assert!(
        unknown.is_empty(),
        "alert rules name metrics the server does not export: {unknown:?}"
    );
    for alert in [
        "BoardcastStorageUnavailable",
        "BoardcastLeaseLost",
        "BoardcastTakeOvers",
        "BoardcastMoveAckSlow",
        "BoardcastRefusals",
        "BoardcastSlowClientsDropped",
        "BoardcastHeapGrowth",
    ] {
        assert!(
            rules.contains(&format!("alert: {alert}\n")),
            "no alert {alert}"
        );
    }
}

#[test]
fn every_dashboard_panel_queries_only_exported_metrics() {
    let text = read("docs/monitoring/boardcast-dashboard.json");
    let dashboard: serde_json::Value = serde_json::from_str(&text).expect("the dashboard is JSON");
    let exported = exported();
    let panels = dashboard["panels"].as_array().expect("panels");
    assert!(panels.len() >= 10, "{} panels", panels.len());
    for panel in panels {
        let title = panel["title"].as_str().expect("a panel title");
        let targets = panel["targets"].as_array().expect("targets");
        assert!(!targets.is_empty(), "panel {title:?} queries nothing");
        for target in targets {
            let expr = target["expr"].as_str().expect("a PromQL expression");
            assert!(
                !metric_names(expr).is_empty(),
                "panel {title:?} names no Boardcast metric: {expr}"
            );
            let unknown = unknown(expr, &exported);
            assert!(
                unknown.is_empty(),
                "panel {title:?} names metrics the server does not export: {unknown:?}"
            );
        }
    }
    // Nothing outside the panels (the node picker) names a metric that does not exist either.
    let unknown = unknown(&text, &exported);
    assert!(unknown.is_empty(), "the dashboard names {unknown:?}");
}
