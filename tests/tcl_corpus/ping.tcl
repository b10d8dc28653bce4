# Three nodes in a chain; n0 pings n2 every 50 ms while a CBR source on
# n0 -> n2 fills the bottleneck's queue, so the round-trip times vary.
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 2Mb 10ms DropTail
$ns duplex-link $n1 $n2 1Mb 20ms DropTail
$ns queue-limit $n1 $n2 10

Agent/Ping instproc recv {from rtt} {
    $self instvar node_
    puts "node [$node_ id] received ping answer from $from with round-trip-time $rtt ms."
}

set p0 [new Agent/Ping]
$ns attach-agent $n0 $p0
set p2 [new Agent/Ping]
$ns attach-agent $n2 $p2
$ns connect $p0 $p2

set udp [new Agent/UDP]
$ns attach-agent $n0 $udp
set null [new Agent/Null]
$ns attach-agent $n2 $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 500
$cbr set rate_ 1.2Mb
$cbr attach-agent $udp

$ns at 0.2 "$cbr start"
$ns at 0.8 "$cbr stop"
for {set i 0} {$i < 20} {incr i} {
    $ns at [expr 0.05 * $i + 0.001] "$p0 send"
}
$ns at 1.0 "$p2 send"
$ns at 1.5 "finish"
proc finish {} {
    global ns tf
    $ns flush-trace
    close $tf
    exit 0
}
$ns run
