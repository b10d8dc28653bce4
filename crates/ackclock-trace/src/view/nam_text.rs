//! Reading nam text: `<letter> -t <time> -<flag> <value> ...`, one record
//! a line, as ns-2 2.35 writes it for wired (`namtrace-all`) and wireless
//! (`namtrace-all-wireless`) simulations; plus the ns-2 variable-trace lines
//! (`0.12086  0  0  2  0  cwnd_ 2.000`) that ns-2 writes into a nam file
//! when a traced agent is attached to it.
//!
//! A value is a word, a `{...}` group (the `-x` field) or a `"..."` string
//! (labels); `v` records keep the rest of the line after `-e`.

use super::build::{Builder, PacketLine};
use super::IndexError;
use std::io::Read;

/// One record's flags, in order, as spans of its line: (flag without its
/// dash, value). The span list is reused from line to line.
struct Fields<'a> {
    line: &'a [u8],
    spans: &'a [(u32, u32, u32, u32)],
}

impl<'a> Fields<'a> {
    fn get(&self, flag: &[u8]) -> Option<&'a [u8]> {
        let line = self.line;
        self.spans
            .iter()
            .find(|&&(f0, f1, _, _)| &line[f0 as usize..f1 as usize] == flag)
            .map(|&(_, _, v0, v1)| &line[v0 as usize..v1 as usize])
    }
}

/// The flags of `rest` (a record after its letter), as spans of `rest`;
/// `command`: a `v` record, whose `-e` runs to the end of the line.
fn split_fields(rest: &[u8], command: bool, spans: &mut Vec<(u32, u32, u32, u32)>) {
    spans.clear();
    let mut i = 0;
    let n = rest.len();
    let is_flag = |i: usize| rest[i] == b'-' && i + 1 < n && rest[i + 1].is_ascii_alphabetic();
    while i < n {
        while i < n && rest[i] == b' ' {
            i += 1;
        }
        if i >= n {
            break;
        }
        if !is_flag(i) {
            // A stray word (such as link-down in a `v` record): skip it.
            while i < n && rest[i] != b' ' {
                i += 1;
            }
            continue;
        }
        let flag_start = i + 1;
        while i < n && rest[i] != b' ' {
            i += 1;
        }
        let flag_end = i;
        while i < n && rest[i] == b' ' {
            i += 1;
        }
        let (v0, v1) = if command && &rest[flag_start..flag_end] == b"e" {
            // `v -t T -e command args...`: the command is the rest of the line.
            let span = (i, n);
            i = n;
            span
        } else if i < n && rest[i] == b'{' {
            let close = rest[i..].iter().position(|&b| b == b'}').map_or(n, |p| i + p);
            let span = (i + 1, close);
            i = (close + 1).min(n);
            span
        } else if i < n && rest[i] == b'"' {
            let close = rest[i + 1..].iter().position(|&b| b == b'"').map_or(n, |p| i + 1 + p);
            let span = (i + 1, close);
            i = (close + 1).min(n);
            span
        } else if i < n && is_flag(i) {
            // A flag without a value (`-X`): the next flag follows.
            (i, i)
        } else {
            let start = i;
            while i < n && rest[i] != b' ' {
                i += 1;
            }
            (start, i)
        };
        spans.push((flag_start as u32, flag_end as u32, v0 as u32, v1 as u32));
    }
}

fn text(v: &[u8]) -> &str {
    std::str::from_utf8(v).unwrap_or("?")
}

/// Where a record goes wrong: the flag and its value.
fn bad(flag: &str, value: &[u8]) -> String {
    format!("-{flag} '{}' is not a number", text(value))
}

fn number(fields: &Fields, flag: &str) -> Result<Option<f64>, String> {
    match fields.get(flag.as_bytes()) {
        None => Ok(None),
        Some(v) => parse_f64(v).map(Some).ok_or_else(|| bad(flag, v)),
    }
}

fn required(fields: &Fields, flag: &str) -> Result<f64, String> {
    number(fields, flag)?.ok_or_else(|| format!("no -{flag}"))
}

fn integer(fields: &Fields, flag: &str) -> Result<Option<i64>, String> {
    match fields.get(flag.as_bytes()) {
        None => Ok(None),
        Some(v) => parse_i64(v).map(Some).ok_or_else(|| bad(flag, v)),
    }
}

fn required_int(fields: &Fields, flag: &str) -> Result<i64, String> {
    integer(fields, flag)?.ok_or_else(|| format!("no -{flag}"))
}

/// A decimal number. Plain decimals whose digits make an integer up to 2^53
/// (nearly every time in a trace) are converted here: that integer divided by
/// a power of ten up to 10^22, both exact doubles, rounds correctly. Anything
/// else goes to the standard parser.
pub(crate) fn parse_f64(v: &[u8]) -> Option<f64> {
    const POW10: [f64; 23] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
        1e20, 1e21, 1e22,
    ];
    let (negative, digits) = match v.first() {
        Some(b'-') => (true, &v[1..]),
        _ => (false, v),
    };
    if digits.is_empty() || digits.len() > 19 {
        return parse_f64_slow(v);
    }
    let mut mantissa: u64 = 0;
    let mut fraction: Option<usize> = None;
    for (i, &b) in digits.iter().enumerate() {
        match b {
            b'0'..=b'9' => mantissa = mantissa * 10 + u64::from(b - b'0'),
            b'.' if fraction.is_none() => fraction = Some(digits.len() - i - 1),
            _ => return parse_f64_slow(v),
        }
    }
    let fraction = fraction.unwrap_or(0);
    if mantissa > 1 << 53 || fraction > 22 || digits == b"." {
        return parse_f64_slow(v);
    }
    let x = mantissa as f64 / POW10[fraction];
    Some(if negative { -x } else { x })
}

fn parse_f64_slow(v: &[u8]) -> Option<f64> {
    let x: f64 = std::str::from_utf8(v).ok()?.parse().ok()?;
    x.is_finite().then_some(x)
}

pub(crate) fn parse_i64(v: &[u8]) -> Option<i64> {
    let (negative, digits) = match v.first() {
        Some(b'-') => (true, &v[1..]),
        _ => (false, v),
    };
    if digits.is_empty() || digits.len() > 18 {
        return None;
    }
    let mut x: i64 = 0;
    for &b in digits {
        if !b.is_ascii_digit() {
            return None;
        }
        x = x * 10 + i64::from(b - b'0');
    }
    Some(if negative { -x } else { x })
}

/// `-t` of a record: a time, or `*` for the set-up records.
fn time(fields: &Fields) -> Result<Option<f64>, String> {
    match fields.get(b"t") {
        None | Some(b"*") => Ok(None),
        Some(v) => parse_f64(v).map(Some).ok_or_else(|| bad("t", v)),
    }
}

/// A packet record, read in one pass over its words: these lines are
/// nearly all of a trace.
fn packet_line(kind: u8, rest: &[u8]) -> Result<PacketLine<'_>, String> {
    let mut p = PacketLine {
        kind,
        time: f64::NAN,
        from: i64::MIN,
        to: i64::MIN,
        ptype: b"",
        size: 0,
        fid: 0,
        uid: -1,
        attr: 0,
        src: b"",
        dst: b"",
        seq: -1,
        flags: b"",
        layer: None,
    };
    let mut words = rest.split(|&b| b == b' ').filter(|w| !w.is_empty());
    while let Some(flag) = words.next() {
        if flag.len() < 2 || flag[0] != b'-' {
            return Err(format!("'{}' is not a flag", text(flag)));
        }
        let Some(value) = words.next() else { break };
        let int = || parse_i64(value).ok_or_else(|| bad(text(&flag[1..]), value));
        match &flag[1..] {
            b"t" => p.time = parse_f64(value).ok_or_else(|| bad("t", value))?,
            b"s" => p.from = int()?,
            b"d" => p.to = int()?,
            b"p" => p.ptype = value,
            b"e" => p.size = int()?,
            b"c" => p.fid = int()?,
            b"i" => p.uid = int()?,
            b"a" => p.attr = int()?,
            b"k" => p.layer = Some(value),
            b"x" if value[0] == b'{' => {
                // {src dst seq flags name}: five words, the braces on the first and last.
                p.src = &value[1..];
                p.dst = words.next().unwrap_or(b"");
                p.seq = words.next().and_then(parse_i64).unwrap_or(-1);
                p.flags = words.next().unwrap_or(b"");
                if !p.flags.ends_with(b"}") {
                    for w in words.by_ref() {
                        if w.ends_with(b"}") {
                            break;
                        }
                    }
                }
            }
            _ => {}
        }
    }
    if p.time.is_nan() {
        return Err("a packet record needs a time".into());
    }
    for (field, flag) in [(p.from, "s"), (p.to, "d")] {
        if field == i64::MIN {
            return Err(format!("no -{flag}"));
        }
    }
    Ok(p)
}

fn record(line: &[u8], spans: &mut Vec<(u32, u32, u32, u32)>, builder: &mut Builder) -> Result<(), String> {
    let letter = line[0];
    if letter.is_ascii_digit() {
        return variable_line(line, builder);
    }
    if line.len() > 1 && line[1] != b' ' {
        let word = line.split(|&b| b == b' ').next().unwrap_or(b"");
        return Err(format!("'{}' is not a nam record", text(word)));
    }
    let rest = &line[1..];
    if let b'+' | b'-' | b'h' | b'r' | b'd' = letter {
        return builder.packet(&packet_line(letter, rest)?);
    }
    split_fields(rest, letter == b'v', spans);
    let f = &Fields { line: rest, spans };
    match letter {
        b'n' => node_record(f, builder)?,
        b'l' => {
            let t = time(f)?;
            let (s, d) = (required_int(f, "s")?, required_int(f, "d")?);
            let state = f.get(b"S").map(text);
            match state {
                Some("DLABEL") => builder.topology().link_label(t, s, d, text(f.get(b"l").unwrap_or(b""))),
                Some(state @ ("UP" | "DOWN")) if t.is_some() => {
                    builder.topology().link_event(t.unwrap_or(0.0), s, d, "link-state", state)
                }
                _ => {}
            }
            if t.is_none() {
                builder.topology().link(
                    s,
                    d,
                    number(f, "r")?,
                    number(f, "D")?,
                    f.get(b"o").map(text),
                    f.get(b"c").map(text),
                );
            }
            if let (Some(t), Some(c)) = (t, f.get(b"c")) {
                if state.is_none() || state == Some("COLOR") {
                    builder.topology().link_event(t, s, d, "link-color", text(c));
                }
            }
        }
        b'q' => builder.topology().queue_pos(
            required_int(f, "s")?,
            required_int(f, "d")?,
            text(f.get(b"a").unwrap_or(b"0")),
        ),
        b'c' => builder.topology().color(required_int(f, "i")?, text(f.get(b"n").unwrap_or(b"black"))),
        b'W' => builder.topology().wireless_area(required(f, "x")?, required(f, "y")?),
        b'v' => {
            if let (Some(t), Some(e)) = (time(f)?, f.get(b"e")) {
                // `sim_annotation T SEQ text...`
                let mut words = text(e).splitn(4, ' ');
                if words.next() == Some("sim_annotation") {
                    builder.topology().annotation(t, words.nth(2).unwrap_or("").trim_end());
                }
            }
        }
        b'm' => {
            if let Some(t) = time(f)? {
                let removed = f.get(b"X").is_some();
                let node = required_int(f, "s")?;
                let name = text(f.get(b"n").unwrap_or(b""));
                let color = if removed { None } else { Some(text(f.get(b"c").unwrap_or(b"black"))) };
                builder.topology().mark(t, node, name, color, text(f.get(b"h").unwrap_or(b"circle")));
            }
        }
        b'f' => {
            // A feature (variable) of an agent: `f -t T -s NODE -a AGENT -n NAME -v VALUE`.
            if let (Some(t), Some(v)) = (time(f)?, f.get(b"v").and_then(parse_f64)) {
                let agent = (text(f.get(b"s").unwrap_or(b"?")), text(f.get(b"a").unwrap_or(b"?")));
                builder.variable(t, agent, ("-1", "-1"), text(f.get(b"n").unwrap_or(b"?")), v);
            }
        }
        _ => builder.ignored(letter),
    }
    Ok(())
}

fn node_record(f: &Fields, builder: &mut Builder) -> Result<(), String> {
    let t = time(f)?;
    let id = required_int(f, "s")?;
    let state = f.get(b"S").map(text);
    let color = f.get(b"c").map(text);
    match (t, state) {
        (None, _) => {
            let x = number(f, "x")?;
            let y = number(f, "y")?;
            let position = x.zip(y);
            builder.topology().node(id, f.get(b"v").map(text), color, position, number(f, "z")?);
            if state == Some("DLABEL") {
                builder.topology().node_label(None, id, text(f.get(b"l").unwrap_or(b"")));
            }
        }
        (Some(t), Some("DLABEL")) => builder.topology().node_label(Some(t), id, text(f.get(b"l").unwrap_or(b""))),
        (Some(t), Some("COLOR")) => builder.topology().node_event(t, id, "node-color", color.unwrap_or("black")),
        (Some(t), Some(state @ ("UP" | "DOWN"))) => builder.topology().node_event(t, id, "node-state", state),
        (Some(t), _) => {
            if let (Some(x), Some(y)) = (number(f, "x")?, number(f, "y")?) {
                let velocity = (number(f, "U")?.unwrap_or(0.0), number(f, "V")?.unwrap_or(0.0));
                builder.topology().motion(t, id, (x, y), velocity, number(f, "T")?.unwrap_or(0.0));
            } else if let Some(c) = color {
                builder.topology().node_event(t, id, "node-color", c);
            }
        }
    }
    Ok(())
}

/// `time src_node src_port dst_node dst_port name value`.
fn variable_line(line: &[u8], builder: &mut Builder) -> Result<(), String> {
    let mut words = [&b""[..]; 7];
    let mut count = 0;
    for w in line.split(|&b| b == b' ' || b == b'\t').filter(|w| !w.is_empty()) {
        if count == 7 {
            count += 1;
            break;
        }
        words[count] = w;
        count += 1;
    }
    if count != 7 {
        return Err(format!("'{}' is neither a nam record nor an ns-2 variable record", text(line)));
    }
    let t = parse_f64(words[0]).ok_or_else(|| format!("'{}' is not a time", text(words[0])))?;
    let value = parse_f64(words[6]).ok_or_else(|| format!("'{}' is not a value", text(words[6])))?;
    let agent = (text(words[1]), text(words[2]));
    let peer = (text(words[3]), text(words[4]));
    builder.variable(t, agent, peer, text(words[5]), value);
    Ok(())
}

/// Reads a whole nam file into `builder`; an error names the line.
pub fn read(mut input: impl Read, builder: &mut Builder) -> Result<(), IndexError> {
    const BLOCK: usize = 1 << 22;
    let mut buf = vec![0u8; BLOCK];
    let mut filled = 0;
    let mut line_no: u64 = 0;
    let mut spans = Vec::with_capacity(24);
    loop {
        let n = input.read(&mut buf[filled..]).map_err(IndexError::Io)?;
        let end = filled + n;
        let eof = n == 0;
        let mut start = 0;
        while start < end {
            let newline = memchr::memchr(b'\n', &buf[start..end]);
            let stop = match newline {
                Some(p) => start + p,
                None if eof => end,
                None => break,
            };
            line_no += 1;
            let mut line = &buf[start..stop];
            if let [rest @ .., b'\r'] = line {
                line = rest;
            }
            let trimmed = line.iter().position(|&b| b != b' ').map_or(&line[line.len()..], |p| &line[p..]);
            if !trimmed.is_empty() && trimmed[0] != b'#' {
                record(trimmed, &mut spans, builder).map_err(|message| IndexError::Line { line: line_no, message })?;
            }
            start = stop + 1;
        }
        if eof {
            return Ok(());
        }
        // Keep the unfinished line; grow the buffer for a line longer than it.
        buf.copy_within(start.min(end)..end, 0);
        filled = end - start.min(end);
        if filled == buf.len() {
            buf.resize(buf.len() * 2, 0);
        }
    }
}
