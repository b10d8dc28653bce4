#!/usr/bin/python3
# queuesize.py -- from the seed chapter (003, ns-2 chapter), §16.2.6.3 "Queue utilization".
# Time-weighted average of the number of packets waiting in node 1's (R's) queues.
# Changes from the text: none to the code (only this header comment was added).
# Needs nstrace.py (same directory; the chapter gives only its interface, see nstrace.py).
# Usage: python3 queuesize.py basic1-long.tr
import nstrace
import sys

def queuesize(filename):
   QUEUE_NODE = 1
   nstrace.nsopen(filename)
   sum = 0.0
   size= 0
   prevtime=0
   while not nstrace.isEOF():
       if nstrace.isEvent():           # counting regular trace lines
           (event, time, sendnode, dnode, proto, dummy, dummy, flow, dummy, dummy, seqno, pktid) = nstrace.getEvent()
           if (sendnode != QUEUE_NODE): continue
           if (event == "r"): continue
           sum += size * (time -prevtime)
           prevtime = time
           if (event=='d'): size -= 1
           elif (event=="-"): size -= 1
           elif (event=="+"): size += 1
       else:
           nstrace.skipline()

   print("avg queue=", sum/time)

queuesize(sys.argv[1])
