#!/usr/bin/python3
# dup_counter.py -- from the seed chapter (003, ns-2 chapter), §16.2.6.4
# "Packets that are delivered twice". Prints "seqno count" for every data packet of
# flow 0 received two or more times at node 2 (B).
# Changes from the text: none to the code (only this header comment was added).
# Usage: python3 dup_counter.py basic1.tr
import nstrace
import sys

def dup_counter(filename):
   SEND_NODE = 1
   DEST_NODE = 2
   FLOW = 0
   count = 0
   COUNTS = {}
   nstrace.nsopen(filename)
   while not nstrace.isEOF():
       if nstrace.isEvent():
           (event, time, sendnode, dest, dummy, size, dummy, flow, dummy, dummy, seqno, dummy) = nstrace.getEvent()
           if (event == "r" and dest == DEST_NODE and size >= 1000 and flow == FLOW):
               if (seqno in COUNTS):
                   COUNTS[seqno] += 1
               else:
                   COUNTS[seqno] = 1
       else:
           nstrace.skipline()
   for seqno in sorted(COUNTS.keys()):
       if (COUNTS[seqno] > 1): print(seqno, COUNTS[seqno])

dup_counter(sys.argv[1])
