# Error models as ns-2's validation suites use them: an ErrorModule that
# drops chosen packets of one flow (ErrorModel/List bound by flow id), and
# periodic and two-state losses on CBR flows counted by loss monitors.
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 5ms DropTail
$ns duplex-link $n1 $n2 2Mb 10ms DropTail

set tcp [new Agent/TCP/Newreno]
$tcp set fid_ 1
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp

set link [$ns link $n1 $n2]
set em [new ErrorModule Fid]
$link errormodule $em
set drops [new ErrorModel/List]
$drops droplist {10 11 30}
$em insert $drops
$em bind $drops 1
$em default pass

foreach {fid kind} {2 periodic 3 twostate} {
    set udp($fid) [new Agent/UDP]
    $udp($fid) set fid_ $fid
    $ns attach-agent $n0 $udp($fid)
    set mon($fid) [new Agent/LossMonitor]
    $ns attach-agent $n2 $mon($fid)
    $ns connect $udp($fid) $mon($fid)
    set cbr($fid) [new Application/Traffic/CBR]
    $cbr($fid) set packetSize_ 500
    $cbr($fid) set interval_ 0.02
    $cbr($fid) attach-agent $udp($fid)
    $ns at 0.05 "$cbr($fid) start"
}
set periodic [new ErrorModel/Periodic]
$periodic unit pkt
$periodic set period_ 7
$periodic set offset_ 2
$periodic set burstlen_ 2
$ns lossmodel $periodic $n0 $n1
set good [new RandomVariable/Constant]
$good set val_ 20
set bad [new RandomVariable/Constant]
$bad set val_ 3
set twostate [new ErrorModel/TwoState $good $bad pkt]
$ns link-lossmodel $twostate $n0 $n1

proc finish {} {
    global tcp sink mon tf
    puts "tcp ack [$tcp set ack_] maxseq [$tcp set maxseq_] sink [$sink set bytes_]"
    puts "monitors [$mon(2) set npkts_] [$mon(3) set npkts_] [$mon(2) set bytes_]"
    close $tf
    exit 0
}
$ns at 0.1 "$ftp start"
$ns at 3.0 "finish"
$ns run
