# Two Agent/UDP talk with data: n0 sends numbered questions, n3 answers each
# one (the answer's size grows with the number), and a question of more than
# packetSize_ bytes is refused as ns-2 refuses it. A CBR source shares the
# bottleneck so that answers queue; every arrival prints the clock.
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
foreach i {0 1 2 3} { set n($i) [$ns node] }
$ns duplex-link $n(0) $n(1) 10Mb 2ms DropTail
$ns duplex-link $n(1) $n(2) 1Mb 15ms DropTail
$ns duplex-link $n(2) $n(3) 10Mb 3ms DropTail
$ns queue-limit $n(1) $n(2) 8

Agent/UDP instproc process_data {from data} {
    global ns
    $self instvar node_
    puts "[format %.6f [$ns now]] node [$node_ id] got {$data} from $from"
    if {[scan $data "question %d" k] == 1} {
        $self send [expr 40 * $k + 20] "answer $k"
    }
}

set asker [new Agent/UDP]
$asker set class_ 3
$asker set packetSize_ 600
$ns attach-agent $n(0) $asker
set answerer [new Agent/UDP]
$answerer set class_ 4
$ns attach-agent $n(3) $answerer
$ns connect $asker $answerer

set udp [new Agent/UDP]
$ns attach-agent $n(0) $udp
set sink [new Agent/Null]
$ns attach-agent $n(3) $sink
$ns connect $udp $sink
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 400
$cbr set rate_ 900kb
$cbr attach-agent $udp

$ns at 0.05 "$cbr start"
$ns at 0.6 "$cbr stop"
for {set k 1} {$k <= 12} {incr k} {
    $ns at [expr 0.07 * $k] "$asker send 200 {question $k}"
}
# Without data: two packets of packetSize_ and one of the rest, no callback.
$ns at 0.33 "$asker send 1500"
# Data that does not fit one packet: ns-2 prints an error and sends nothing
# (after the last arrival: ns-2's C stdout is flushed after Tcl's at exit).
$ns at 1.1 "$asker send 700 {question 99}"
$ns at 1.2 "finish"
proc finish {} {
    global ns tf
    $ns flush-trace
    close $tf
    exit 0
}
$ns run
