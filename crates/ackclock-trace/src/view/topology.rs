//! What a trace says about the network rather than its packets: nodes,
//! links, queue positions, colours, labels, annotations, node motion, and
//! their changes over time. Small; it goes into the index's JSON header.

use rustc_hash::FxHashMap;
use serde_json::{json, Value};
use std::collections::BTreeMap;

#[derive(Default)]
struct Node {
    shape: Option<String>,
    color: Option<String>,
    label: Option<String>,
    position: Option<(f64, f64)>,
    size: Option<f64>,
}

struct Link {
    src: i64,
    dst: i64,
    bandwidth: Option<f64>,
    delay: Option<f64>,
    orient: Option<String>,
    color: Option<String>,
    label: Option<String>,
}

const DENSE_NODES: i64 = 64;

#[derive(Default)]
pub struct Topology {
    nodes: BTreeMap<i64, Node>,
    links: Vec<Link>,
    /// Link directions (from, to) in order of first use; `to` is -1 for a
    /// wireless broadcast.
    pub dirs: Vec<(i64, i64)>,
    dir_index: FxHashMap<(i64, i64), u32>,
    dense: Vec<Option<u32>>,
    queue_pos: FxHashMap<(i64, i64), String>,
    colors: BTreeMap<i64, String>,
    /// Timed changes: labels, colours, link and node state, marks.
    events: Vec<(f64, Value)>,
    /// (t, node, x, y, vx, vy, duration) of `n -t T -s N -x -y -U -V -T`.
    motions: Vec<(f64, i64, f64, f64, f64, f64, f64)>,
    annotations: Vec<(f64, String)>,
    wireless: Option<(f64, f64)>,
}

impl Topology {
    pub fn dir(&mut self, from: i64, to: i64) -> u32 {
        // Small node numbers (nearly every trace's) index a table directly.
        let dense = (0..DENSE_NODES).contains(&from) && (-1..DENSE_NODES - 1).contains(&to);
        let slot = (from * DENSE_NODES + to + 1) as usize;
        if dense {
            if let Some(&Some(d)) = self.dense.get(slot) {
                return d;
            }
        }
        if let Some(&d) = self.dir_index.get(&(from, to)) {
            return d;
        }
        let d = self.dirs.len() as u32;
        self.dirs.push((from, to));
        self.dir_index.insert((from, to), d);
        if dense {
            if self.dense.is_empty() {
                self.dense = vec![None; (DENSE_NODES * DENSE_NODES) as usize];
            }
            self.dense[slot] = Some(d);
        }
        for n in [from, to] {
            if n >= 0 {
                self.nodes.entry(n).or_default();
            }
        }
        d
    }

    pub fn node(
        &mut self,
        id: i64,
        shape: Option<&str>,
        color: Option<&str>,
        position: Option<(f64, f64)>,
        size: Option<f64>,
    ) {
        let node = self.nodes.entry(id).or_default();
        node.shape = shape.map(str::to_string).or(node.shape.take());
        node.color = color.map(str::to_string).or(node.color.take());
        node.position = position.or(node.position);
        node.size = size.or(node.size);
    }

    pub fn node_label(&mut self, t: Option<f64>, id: i64, label: &str) {
        match t {
            // ns-2 writes the labels set before the run at time 0.
            None | Some(0.0) => self.nodes.entry(id).or_default().label = Some(label.to_string()),
            Some(t) => self.events.push((t, json!({"kind": "node-label", "node": id, "value": label}))),
        }
    }

    pub fn node_event(&mut self, t: f64, id: i64, kind: &str, value: &str) {
        self.nodes.entry(id).or_default();
        self.events.push((t, json!({"kind": kind, "node": id, "value": value})));
    }

    pub fn mark(&mut self, t: f64, id: i64, name: &str, color: Option<&str>, shape: &str) {
        self.events.push((t, json!({"kind": "mark", "node": id, "name": name, "value": color, "shape": shape})));
    }

    pub fn motion(&mut self, t: f64, id: i64, (x, y): (f64, f64), (vx, vy): (f64, f64), duration: f64) {
        self.nodes.entry(id).or_default();
        self.motions.push((t, id, x, y, vx, vy, duration));
    }

    pub fn link(
        &mut self,
        src: i64,
        dst: i64,
        bandwidth: Option<f64>,
        delay: Option<f64>,
        orient: Option<&str>,
        color: Option<&str>,
    ) {
        self.dir(src, dst);
        self.dir(dst, src);
        let link = Link {
            src,
            dst,
            bandwidth,
            delay,
            orient: orient.map(str::to_string),
            color: color.map(str::to_string),
            label: None,
        };
        match self.find_link(src, dst) {
            Some(i) => self.links[i] = link,
            None => self.links.push(link),
        }
    }

    fn find_link(&self, a: i64, b: i64) -> Option<usize> {
        self.links.iter().position(|l| (l.src, l.dst) == (a, b) || (l.src, l.dst) == (b, a))
    }

    pub fn link_label(&mut self, t: Option<f64>, src: i64, dst: i64, label: &str) {
        match (t, self.find_link(src, dst)) {
            (None | Some(0.0), Some(i)) => self.links[i].label = Some(label.to_string()),
            (t, _) => self.link_event(t.unwrap_or(0.0), src, dst, "link-label", label),
        }
    }

    pub fn link_event(&mut self, t: f64, src: i64, dst: i64, kind: &str, value: &str) {
        self.events.push((t, json!({"kind": kind, "src": src, "dst": dst, "value": value})));
    }

    pub fn queue_pos(&mut self, src: i64, dst: i64, pos: &str) {
        self.queue_pos.insert((src, dst), pos.to_string());
    }

    pub fn color(&mut self, id: i64, name: &str) {
        self.colors.insert(id, name.to_string());
    }

    pub fn annotation(&mut self, t: f64, text: &str) {
        self.annotations.push((t, text.to_string()));
    }

    pub fn wireless_area(&mut self, width: f64, height: f64) {
        self.wireless = Some((width, height));
    }

    /// The longest link delay, if any link has one.
    pub fn max_delay(&self) -> Option<f64> {
        self.links.iter().filter_map(|l| l.delay).reduce(f64::max)
    }

    pub fn to_json(&self) -> Value {
        let by_time = |a: &(f64, Value), b: &(f64, Value)| a.0.total_cmp(&b.0);
        let mut events = self.events.clone();
        events.sort_by(by_time);
        let mut motions = self.motions.clone();
        motions.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut annotations = self.annotations.clone();
        annotations.sort_by(|a, b| a.0.total_cmp(&b.0));
        json!({
            "nodes": self.nodes.iter().map(|(id, n)| json!({
                "id": id, "shape": n.shape, "color": n.color, "label": n.label,
                "x": n.position.map(|p| p.0), "y": n.position.map(|p| p.1), "size": n.size,
            })).collect::<Vec<_>>(),
            "links": self.links.iter().map(|l| json!({
                "src": l.src, "dst": l.dst, "bandwidth": l.bandwidth, "delay": l.delay,
                "orient": l.orient, "color": l.color, "label": l.label,
            })).collect::<Vec<_>>(),
            "dirs": self.dirs.iter().map(|&(from, to)| json!({
                "from": from, "to": to,
                "link": self.find_link(from, to),
                "queue_pos": self.queue_pos.get(&(from, to)),
            })).collect::<Vec<_>>(),
            "colors": self.colors.iter().map(|(id, name)| (id.to_string(), json!(name))).collect::<serde_json::Map<_, _>>(),
            "events": events.into_iter().map(|(t, mut e)| { e["t"] = json!(t); e }).collect::<Vec<_>>(),
            "motions": motions.iter().map(|m| json!([m.0, m.1, m.2, m.3, m.4, m.5, m.6])).collect::<Vec<_>>(),
            "annotations": annotations.iter().map(|(t, text)| json!([t, text])).collect::<Vec<_>>(),
            "wireless": self.wireless.map(|(w, h)| json!({"width": w, "height": h})),
        })
    }
}
