# NS basic2.tcl with TCP Reno against TCP Vegas (seed 003, sec. 16.5).
#
# [ackclock] The chapter's sec. 16.5 runs basic2.tcl (benchmarks/ns2/basic2.tcl, with
# its [ackclock] command-line parameters) with the second sender changed as the
# chapter prints it:
#       set tcp1 [new Agent/TCP/Vegas]
#       $tcp1 set v_alpha_ 3
#       $tcp1 set v_beta_  6
#       Agent/TCP/Vegas set packetSize_ 1000
# ("for TCP Vegas objects in ns-2, the packetSize_ includes the headers"), placed
# where basic2.tcl creates tcp1 and sets packetSize_. Its runs: bottleneckBW 8.0,
# overhead 0.002, queue sizes 10 to 220, e.g. "ns renovegas.tcl 0 0.002 8.0 300 20"
# (Reno/Vegas goodput ratio about 1.1 over the first 300 s; ns-2 2.35: 1.085).
# One more [ackclock] parameter, a sixth, seeds ns-2's default generator
# ($defaultRNG seed), so that a study can average over replications; a seventh
# and an eighth set Vegas's v_alpha_ and v_beta_ (default the chapter's 3 and 6;
# its first attempt, and exercise 14, use Vegas's defaults 1 and 3):
#     ns renovegas.tcl [delayB [overhead [bottleneckBW [endtime [queuesize [seed [alpha [beta]]]]]]]]
# The trace file is renovegas.tr.

# Create a simulator object
set ns [new Simulator]

#Open the trace file
set trace [open renovegas.tr w]
$ns trace-all $trace

############## some globals (modify as desired) ##############

# queuesize on bottleneck link
set queuesize 20
# default run time, in seconds
set endtime 300
# "overhead" of D>0 introduces a uniformly randomized delay d, 0≤d≤D; 0 turns it off.
set overhead 0
# delay on the A--R link, in ms
set basedelay 10
# ADDITIONAL delay on the B--R link, in ms
set delayB 0
# bandwidth on the bottleneck link, either 0.8 or 8.0 Mbit
set bottleneckBW 0.8
# estimated no-load RTT for the first flow, in ms
set RTTNL 220
# [ackclock] TCP Vegas's alpha and beta
set valpha 3
set vbeta 6

# [ackclock] optional command-line parameters (see header)
if { $argc >= 1 } {
    set delayB [expr [lindex $argv 0]]
}
if { $argc >= 2 } {
    set overhead [expr [lindex $argv 1]]
}
if { $argc >= 3 } {
    set bottleneckBW [expr [lindex $argv 2]]
}
if { $argc >= 4 } {
    set endtime [expr [lindex $argv 3]]
}
if { $argc >= 5 } {
    set queuesize [expr [lindex $argv 4]]
}
if { $argc >= 6 } {
    global defaultRNG
    $defaultRNG seed [expr [lindex $argv 5]]
}
if { $argc >= 7 } {
    set valpha [expr [lindex $argv 6]]
}
if { $argc >= 8 } {
    set vbeta [expr [lindex $argv 7]]
}

############## arrange for output ##############

set outstr [format "parameters: delayB=%f overhead=%f bottleneckBW=%f" $delayB $overhead $bottleneckBW]
puts stdout $outstr

# Define a 'finish' procedure that prints out progress for each connection
proc finish {} {
        global ns tcp0 tcp1 end0 end1 queuesize trace delayB overhead RTTNL
        set ack0 [$tcp0 set ack_]
        set ack1 [$tcp1 set ack_]
        # counts of packets *received*
        set recv0 [expr round ( [$end0 set bytes_] / 1000.0)]
        set recv1 [expr round ( [$end1 set bytes_] / 1000.0)]
        # see numbers below in topology-creation section
        set rttratio [expr (2.0*$delayB+$RTTNL)/$RTTNL]
        # actual ratio of throughputs fast/slow; the 1.0 forces floating point
        set actualratio [expr 1.0*$recv0/$recv1]
        # theoretical ratio fast/slow with squaring; see text for discussion of ratio1 and ratio2
        set rttratio2 [expr $rttratio*$rttratio]
        set ratio1 [expr $actualratio/$rttratio]
        set ratio2 [expr $actualratio/$rttratio2]
        set outstr [format "%f %f %d %d %f %f %f %f %f" $delayB $overhead $recv0 $recv1 $rttratio $rttratio2 $actualratio $ratio1 $ratio2 ]
        puts stdout $outstr
        $ns flush-trace
        close $trace
        exit 0
}

############### create network topology ##############

# A
#   \
#     \
#      R---D (Destination)
#     /
#   /
# B

#Create four nodes
set A [$ns node]
set B [$ns node]
set R [$ns node]
set D [$ns node]

set fastbw [expr $bottleneckBW * 10]
#Create links between the nodes; propdelay on B--R link is 10+$delayB ms
$ns duplex-link $A $R ${fastbw}Mb ${basedelay}ms DropTail
$ns duplex-link $B $R ${fastbw}Mb [expr $basedelay + $delayB]ms DropTail
# this last link is the bottleneck; 1000 bytes at 0.80Mbps => 10 ms/packet
# A--D one-way delay is thus 110 ms prop + 11 ms bandwidth
# the values 0.8Mb, 100ms are from Floyd & Jacobson

$ns duplex-link $R $D ${bottleneckBW}Mb 100ms DropTail

$ns queue-limit $R $D $queuesize

############## create and connect TCP agents, and start ##############

Agent/TCP set window_ 65000
Agent/TCP set packetSize_ 960
Agent/TCP/Vegas set packetSize_ 1000
Agent/TCP set overhead_ $overhead

#Create a TCP agent and attach it to node A, the delayed path
set tcp0 [new Agent/TCP/Reno]
$tcp0 set class_ 0
# set the flowid here, used as field 8 in the trace
$tcp0 set fid_ 0
$tcp0 attach $trace
$tcp0 tracevar cwnd_
$tcp0 tracevar ack_
$ns attach-agent $A $tcp0

set tcp1 [new Agent/TCP/Vegas]
$tcp1 set v_alpha_ $valpha
$tcp1 set v_beta_  $vbeta
$tcp1 set class_ 1
$tcp1 set fid_ 1
$tcp1 attach $trace
$tcp1 tracevar cwnd_
$tcp1 tracevar ack_
$ns attach-agent $B $tcp1

set end0 [new Agent/TCPSink]
$ns attach-agent $D $end0

set end1 [new Agent/TCPSink]
$ns attach-agent $D $end1

#Connect the traffic source with the traffic sink
$ns connect $tcp0 $end0
$ns connect $tcp1 $end1

#Schedule the connection data flow
set ftp0 [new Application/FTP]
$ftp0 attach-agent $tcp0

set ftp1 [new Application/FTP]
$ftp1 attach-agent $tcp1

$ns at 0.0 "$ftp0 start"
$ns at 0.0 "$ftp1 start"
$ns at $endtime "finish"

#Run the simulation
$ns run
