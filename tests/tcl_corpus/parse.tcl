# ns-2's helpers and object handles that scripts use around the topology:
# bandwidth and delay parsing, link handles and their queues, reading
# variables back, advance/advanceby, at-now and cancelled events.
set ns [new Simulator]
puts "[$ns bw_parse 1.5Mb] [$ns bw_parse 64kb] [$ns bw_parse 2MB] [bw_parse 10Mbps]"
puts "[$ns delay_parse 10ms] [$ns delay_parse 250us] [time_parse 2s]"
set a [$ns node]
set b [$ns node]
$ns duplex-link $a $b 2Mb 15ms DropTail
set link [$ns link $a $b]
set q [$link queue]
$q set limit_ 6
puts "link [$link bw] [$link delay] limit [$q set limit_] [[$link src] id]->[[$link dst] id]"

set tcp [new Agent/TCP/Reno]
$tcp set packetSize_ 500
$tcp set window_ 10
$ns attach-agent $a $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $b $sink
$ns connect $tcp $sink
puts "defaults [$tcp set windowInit_] [$tcp set tcpTick_] [$sink set packetSize_] [$tcp set cwnd_]"

set tf [open out.tr w]
$ns trace-queue $a $b $tf
$ns at 0.1 "$tcp advance 20"
$ns at 0.3 "$tcp advanceby 30"
set ev [$ns at 1.5 "puts cancelled"]
$ns cancel $ev
$ns at 2.0 {$ns at-now {puts "now [$ns now] ack [$tcp set ack_] maxseq [$tcp set maxseq_]"}}
$ns at 3.0 "close $tf; exit 0"
$ns run
