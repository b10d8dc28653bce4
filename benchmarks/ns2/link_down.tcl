# A link going down and back up (rtmodel-at) under a 2 Mb/s CBR into a
# 1 Mb/s link: what the queue and the wire held is dropped, packets sent
# while it is down are dropped. Ground truth for ackclock's link dynamics
# (tests/fixtures/link_down.tr; crates/ackclock-sim/tests/dynamics.rs).
set ns [new Simulator]
set f [open link_down.tr w]
$ns trace-all $f
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 1Mb 10ms DropTail
set udp [new Agent/UDP]
$ns attach-agent $n0 $udp
set null [new Agent/Null]
$ns attach-agent $n1 $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 1000
$cbr set rate_ 2Mb
$cbr attach-agent $udp
$ns at 0.0 "$cbr start"
$ns rtmodel-at 0.1 down $n0 $n1
$ns rtmodel-at 0.2 up $n0 $n1
$ns at 0.3 "finish"
proc finish {} { global ns f; $ns flush-trace; close $f; exit 0 }
$ns run
