# FullTcp's receiver clock and its sender's small segments: an ACK every
# second full segment (segsperack_ 2) or at the next tick of a 50 ms
# delayed-ACK clock, Nagle holding back a short tail while data is
# outstanding, and a window restarted after the sender sat idle. The
# trace shows the TCP headers (show_tcphdr_) and the sender counts its
# bytes from an initial sequence number of its own (iss_).
Trace set show_tcphdr_ 1
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set a [$ns node]
set b [$ns node]
$ns duplex-link $a $b 2Mb 15ms DropTail

Agent/TCP/FullTcp set segsize_ 500
Agent/TCP/FullTcp set segsperack_ 2
Agent/TCP/FullTcp set interval_ 0.05
set src [new Agent/TCP/FullTcp]
$src set iss_ 7000
set dst [new Agent/TCP/FullTcp]
$ns attach-agent $a $src
$ns attach-agent $b $dst
$ns connect $src $dst
$dst listen
set ftp [new Application/FTP]
$ftp attach-agent $src

proc show {what} {
    global ns src
    puts [format "%.3f %s: ack %d maxseq %d cwnd %g" [$ns now] $what \
        [$src set ack_] [$src set maxseq_] [$src set cwnd_]]
}
$ns at 0.2 "$ftp send 1700"
$ns at 0.21 "$ftp send 300"
$ns at 0.22 "$ftp send 2750"
$ns at 0.6 "show burst"
$ns at 2.0 "show idle"
$ns at 2.0 "$ftp send 6100"
$ns at 2.5 "show again"
$ns at 3.0 "$src close"
$ns at 4.0 "show end; close $tf; exit 0"
$ns run
