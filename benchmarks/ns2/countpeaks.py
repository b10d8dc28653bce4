#!/usr/bin/python3
# countpeaks.py -- from the seed chapter (003, ns-2 chapter), §16.4.2.1 "Counting teeth
# in Python". Counts, per flow, the times cwnd_ decreases after STARTPOINT (teeth) and
# how many of those set cwnd_ to 1 (coarse timeouts). Flow = source node 0 vs other.
# Changes from the text: none to the code (only this header comment was added).
# Usage: python3 countpeaks.py basic2.tr
import nstrace
import sys

# counts all points where cwnd_ drops.

STARTPOINT = 3.0       # wait for slow start to be done

class flowstats:               # python object to hold per-flow data
   def __init__(self):
       self.toothcount = 0
       self.prevcwnd = 0
       self.CTOcount = 0               # Coarse TimeOut count

def countpeaks(filename):
   global STARTPOINT
   nstrace.nsopen(filename)

   flow0 = flowstats()
   flow1 = flowstats()

   while not nstrace.isEOF():
       if nstrace.isVar():             # counting cwnd_ trace lines
           (time, snode, dummy, dummy, dummy, varname, cwnd) = nstrace.getVar()
           if (time < STARTPOINT):     continue
           if varname != "cwnd_":      continue
           if snode == 0: flow=flow0
           else: flow=flow1
           if cwnd < flow.prevcwnd:
               flow.toothcount += 1                    # count this as a tooth
               if cwnd == 1.0: flow.CTOcount += 1      # coarse timeout
           flow.prevcwnd=cwnd
       else:
           nstrace.skipline()

   print ("flow 0 teeth:", flow0.toothcount, "flow 1 teeth:", flow1.toothcount)
   print ("flow 0 coarse timeouts:", flow0.CTOcount, "flow 1 coarse timeouts:", flow1.CTOcount)

countpeaks(sys.argv[1])
