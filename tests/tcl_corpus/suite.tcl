# A test in the style of ns-2's validation suites: OTcl classes for the
# suite, its topologies and its tests, chosen by name on the command line.
Class TestSuite
Class Topology
Class Topology/dumbbell -superclass Topology

Topology instproc node? name {
    $self instvar node_
    return $node_($name)
}

Topology/dumbbell instproc init ns {
    $self instvar node_
    foreach name {s1 s2 r1 k1} {
        set node_($name) [$ns node]
    }
    $ns duplex-link $node_(s1) $node_(r1) 10Mb 2ms DropTail
    $ns duplex-link $node_(s2) $node_(r1) 10Mb 3ms DropTail
    $ns duplex-link $node_(r1) $node_(k1) 1.5Mb 20ms DropTail
    $ns queue-limit $node_(r1) $node_(k1) 20
}

TestSuite instproc init {} {
    $self instvar ns_ topo_ node_ testName_
    set ns_ [new Simulator]
    $ns_ trace-all [open all.tr w]
    set topo_ [new Topology/dumbbell $ns_]
    foreach name {s1 s2 r1 k1} {
        set node_($name) [$topo_ node? $name]
    }
}

TestSuite instproc flow {kind src fid start} {
    $self instvar ns_ node_
    set tcp [$ns_ create-connection TCP/$kind $node_($src) TCPSink $node_(k1) $fid]
    $tcp set window_ 30
    set ftp [$tcp attach-app FTP]
    $ns_ at $start "$ftp start"
    return $tcp
}

TestSuite instproc finish {tcps} {
    foreach tcp $tcps {
        puts "[$tcp info class] ack [$tcp set ack_] cuts [$tcp set ncwndcuts_]"
    }
    exit 0
}

Class Test/reno -superclass TestSuite
Test/reno instproc run {} {
    $self instvar ns_
    set a [$self flow Reno s1 1 0.0]
    set b [$self flow Reno s2 2 0.1]
    $ns_ at 10.0 "$self finish {$a $b}"
    $ns_ run
}

Class Test/mixed -superclass Test/reno
Test/mixed instproc run {} {
    $self instvar ns_
    set a [$self flow Newreno s1 1 0.0]
    set b [$self flow Sack1 s2 2 0.2]
    $ns_ at 10.0 "$self finish {$a $b}"
    $ns_ run
}

proc runtest {name} {
    set test [new Test/$name]
    $test run
}
runtest [lindex $argv 0]
