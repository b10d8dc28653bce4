# Distance-vector routing on a ring of seven nodes with a link failure:
# the dynamic-routing example of Marc Greis's ns-2 tutorial (sec. VIII).
# CBR (500-byte packets every 5 ms) from n0 to n3 from 0.5 s to 4.5 s; the
# link n1-n2 is down from 1 s to 2 s. Besides the trace it prints, for the
# comparison with ackclock (tests/fixtures/dv_ring.txt):
#   route TIME NODE DST NEXTHOP METRIC   every change of a node's route
#                                        (next hop or metric; 32 is infinity)
#   sink PACKETS                  what n3's sink received
#   drops PACKETS                 the trace's drop records
# Usage: ns dv_ring.tcl [TRACE]   (default dv_ring.tr)
set ns [new Simulator]
set trace [expr {[llength $argv] > 0 ? [lindex $argv 0] : "dv_ring.tr"}]
set f [open $trace w]
$ns trace-all $f

# Log every route change: wrap rtObject's route computation.
rtObject instproc compute-routes-unlogged {} [rtObject info instbody compute-routes]
rtObject instproc compute-routes {} {
    $self instvar nextHop_ metric_ node_ ns_
    set hops [array get nextHop_]
    set metrics [array get metric_]
    $self compute-routes-unlogged
    array set old_hop $hops
    array set old_metric $metrics
    foreach dst [lsort -command {apply {{a b} {expr {[$a id] - [$b id]}}}} [array names nextHop_]] {
        if {$old_hop($dst) != $nextHop_($dst) || $old_metric($dst) != $metric_($dst)} {
            set hop [expr {$nextHop_($dst) == "" ? "-" : [[$nextHop_($dst) set toNode_] id]}]
            puts "route [$ns_ now] [$node_ id] [$dst id] $hop $metric_($dst)"
        }
    }
}

$ns rtproto DV
for {set i 0} {$i < 7} {incr i} {
    set n($i) [$ns node]
}
for {set i 0} {$i < 7} {incr i} {
    $ns duplex-link $n($i) $n([expr ($i+1)%7]) 1Mb 10ms DropTail
}
set udp0 [new Agent/UDP]
$ns attach-agent $n(0) $udp0
set cbr0 [new Application/Traffic/CBR]
$cbr0 set packetSize_ 500
$cbr0 set interval_ 0.005
$cbr0 attach-agent $udp0
set sink [new Agent/LossMonitor]
$ns attach-agent $n(3) $sink
$ns connect $udp0 $sink
$ns at 0.5 "$cbr0 start"
$ns rtmodel-at 1.0 down $n(1) $n(2)
$ns rtmodel-at 2.0 up $n(1) $n(2)
$ns at 4.5 "$cbr0 stop"
$ns at 5.0 "finish"
proc finish {} {
    global ns f sink trace
    $ns flush-trace
    close $f
    puts "sink [$sink set npkts_]"
    set drops 0
    set in [open $trace r]
    while {[gets $in line] >= 0} {
        if {[string index $line 0] == "d"} { incr drops }
    }
    close $in
    puts "drops $drops"
    exit 0
}
$ns run
