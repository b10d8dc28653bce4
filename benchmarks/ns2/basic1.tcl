# basic1.tcl simulation: A---R---B
#
# [ackclock] Extracted from the seed chapter (003, ns-2 chapter), sec. 16.2 "A Single TCP
# Sender". The sec. 16.2 script ran unmodified on ns-2 2.35 (no line-wrapping or quote damage
# in the extracted code). Changes, all per sec. 16.2.6.2 "ns-2 command-line parameters":
#   * added the variables queuesize (default 7) and endtime (default 10.0, the original
#     values) and the chapter's two optional command-line arguments:
#         ns basic1.tcl [queuesize [endtime]]
#   * "$ns queue-limit $R $B 7"  ->  "$ns queue-limit $R $B $queuesize"
#   * "$ns at 10.0 \"finish\""   ->  "$ns at $endtime \"finish\""
# With no arguments the script is behaviourally identical to the chapter's (same
# basic1.tr / basic1.nam, no output). Everything else is the text verbatim.

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

#Open the nam file basic1.nam and the variable-trace file basic1.tr
set namfile [open basic1.nam w]
$ns namtrace-all $namfile
set tracefile [open basic1.tr w]
$ns trace-all $tracefile

#Define a 'finish' procedure
proc finish {} {
        global ns namfile tracefile
        $ns flush-trace
        close $namfile
        close $tracefile
        exit 0
}

#Create the network nodes
set A [$ns node]
set R [$ns node]
set B [$ns node]

#Create a duplex link between the nodes

$ns duplex-link $A $R 10Mb 10ms DropTail
$ns duplex-link $R $B 800Kb 50ms DropTail

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
$tcp0 set window_ 100
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
