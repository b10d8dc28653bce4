# basic1-long.tcl simulation: A---R---B, long-delay variant (A--R 10Mb/50ms, R--B 800Kb/100ms)
#
# [ackclock] The single-sender throughput experiments of the seed chapter (003, ns-2
# chapter), sec. 16.2.6 (utilization table, queue_limit 3..30, 1000 s) and sec. 16.2.6.3
# (average queue, queue_limit 40, 1000 s) use basic1.tcl with "the per-link propagation
# times increased to 50 and 100 ms". That is a different topology from basic1.tcl's
# default, so it is kept as this separate script. Derived from basic1.tcl (which see);
# changes relative to basic1.tcl, each taken from the chapter:
#   * sec. 16.2.6: "$ns duplex-link $A $R 10Mb 50ms DropTail" and
#                  "$ns duplex-link $R $B 800Kb 100ms DropTail"
#   * sec. 16.2: "$tcp0 set window_ 100" -> "$tcp0 set window_ 65000" ("in the next
#     section we will increase this to 65000"). This matters: with window_ 100 the
#     received counts for queue_limit 20, 22, 26, 30 differ from the chapter's table
#     (97193, 98021, 99059, 99541); with 65000 all 11 rows match exactly.
#   * sec. 16.2.2: finish{} prints "final ack: <ack_>, final seq num: <maxseq_>" as in the
#     chapter's example. FIX: the chapter's example says "global ns nf f tcp0" but uses
#     $namfile and $tracefile, which fails in ns-2 ("can't read namfile: no such
#     variable"); the global line here is "global ns namfile tracefile tcp0 end0".
#     It also prints the sec. 16.2.2 sink count round(bytes_/1000.0) as "ACKed: <n>".
#   * trace files are named basic1-long.tr / basic1-long.nam so they do not clobber
#     basic1.tcl's.
# Usage: ns basic1-long.tcl [queuesize [endtime]]   (defaults 7 and 10.0, as basic1.tcl)
# The chapter runs it with endtime 1000 and queuesize 3..30 (and 40).

#Create a simulator object
set ns [new Simulator]

# [ackclock] defaults = the original values; optional args per sec. 16.2.6.2
set queuesize 7
set endtime 10.0
if { $argc >= 1 } {
   set queuesize [expr [lindex $argv 0]]
}
if { $argc >= 2 } {
   set endtime [expr [lindex $argv 1]]
}

#Open the nam file basic1-long.nam and the variable-trace file basic1-long.tr
set namfile [open basic1-long.nam w]
$ns namtrace-all $namfile
set tracefile [open basic1-long.tr w]
$ns trace-all $tracefile

#Define a 'finish' procedure
proc finish {} {
        global ns namfile tracefile tcp0 end0
        $ns flush-trace
        close $namfile
        close $tracefile
        set lastACK [$tcp0 set ack_]
        set lastSEQ [$tcp0 set maxseq_]
        puts stdout "final ack: $lastACK, final seq num: $lastSEQ"
        set ACKed [expr round ( [$end0 set bytes_] / 1000.0)]
        puts stdout "ACKed: $ACKed"
        exit 0
}

#Create the network nodes
set A [$ns node]
set R [$ns node]
set B [$ns node]

#Create a duplex link between the nodes

$ns duplex-link $A $R 10Mb 50ms DropTail
$ns duplex-link $R $B 800Kb 100ms DropTail

# The queue size at $R is to be 7, including the packet being sent
$ns queue-limit $R $B $queuesize

# some hints for nam
# color packets of flow 0 red
$ns color 0 Red
$ns duplex-link-op $A $R orient right
$ns duplex-link-op $R $B orient right
$ns duplex-link-op $R $B queuePos 0.5

# Create a TCP sending agent and attach it to A
set tcp0 [new Agent/TCP/Reno]
# We make our one-and-only flow be flow 0
$tcp0 set class_ 0
$tcp0 set window_ 65000
$tcp0 set packetSize_ 960
$ns attach-agent $A $tcp0

# Let's trace some variables
$tcp0 attach $tracefile
$tcp0 tracevar cwnd_
$tcp0 tracevar ssthresh_
$tcp0 tracevar ack_
$tcp0 tracevar maxseq_

#Create a TCP receive agent (a traffic sink) and attach it to B
set end0 [new Agent/TCPSink]
$ns attach-agent $B $end0

#Connect the traffic source with the traffic sink
$ns connect $tcp0 $end0

#Schedule the connection data flow; start sending data at T=0, stop at T=10.0
set myftp [new Application/FTP]
$myftp attach-agent $tcp0
$ns at 0.0 "$myftp start"
$ns at $endtime "finish"

#Run the simulation
$ns run
