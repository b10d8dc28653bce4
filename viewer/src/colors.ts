// Packet colours as nam chooses them: the trace's colour table (`$ns color
// fid name`) by the packet's colour attribute (its flow id in ns-2 traces),
// black when the table has no entry; a trace without any table (an ackclock
// scenario) gets a palette by flow id so that flows differ.

import { Conv, Header } from './format';

const PALETTE = ['#d62728', '#1f77b4', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf'];

export function convColors(header: Header): string[] {
  const table = header.colors;
  const hasTable = Object.keys(table).length > 0;
  return header.convs.map((c: Conv) => {
    const named = table[String(c.attr)];
    if (named) return named.toLowerCase();
    return hasTable ? 'black' : PALETTE[((c.fid % PALETTE.length) + PALETTE.length) % PALETTE.length];
  });
}
