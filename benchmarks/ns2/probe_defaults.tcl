# probe_defaults.tcl -- print the default values of the ns-2 objects ackclock models.
#
# [ackclock] Not from the chapter. Instantiates each object the way the chapter's scripts
# do (new Agent/TCP/Reno, ...) and prints "Class var value" for every variable below that
# the object has, so docs/ns2-reference.md can quote what ns-2 2.35 really uses.
# Usage: ns probe_defaults.tcl

set ns [new Simulator]

proc probe {class vars} {
    set obj [new $class]
    foreach v $vars {
        if {[catch {$obj set $v} val]} { continue }
        puts [format "%-22s %-22s %s" $class $v $val]
    }
}

set tcpvars {window_ windowInit_ wnd_init_option_ syn_ delay_growth_ packetSize_
    tcpip_base_hdr_size_ maxcwnd_ cwnd_ ssthresh_ max_ssthresh_ tcpTick_ minrto_
    maxrto_ rtxcur_init_ srtt_init_ rttvar_init_ T_SRTT_BITS T_RTTVAR_BITS
    rttvar_exp_ timerfix_ numdupacks_ numdupacksFrac_ singledup_ maxburst_
    overhead_ timestamps_ bugFix_ bugfix_ss_ precisionReduce_ ecn_ old_ecn_
    slow_start_restart_ restart_bugfix_ noFastRetrans_ dupseg_fix_ dupwnd_
    newreno_changes_ newreno_changes1_ partial_window_deflation_ exitFastRetrans_
    increase_num_ decrease_num_ k_parameter_ l_parameter_ windowOption_ frto_enabled_
    sfrto_enabled_ useHeaders_ class_ fid_ prio_ ttl_
    v_alpha_ v_beta_ v_gamma_ v_rtt_ maxseq_ ack_ t_seqno_ nrexmitpack_}

probe Agent/TCP        $tcpvars
probe Agent/TCP/Reno   $tcpvars
probe Agent/TCP/Newreno $tcpvars
probe Agent/TCP/Sack1  $tcpvars
probe Agent/TCP/Vegas  $tcpvars
probe Agent/TCPSink        {packetSize_ maxSackBlocks_ ts_echo_bugfix_ ts_echo_rfc1323_ generateDSacks_ qs_enabled_ RFC2581_immediate_ack_ ecn_syn_ bytes_}
probe Agent/TCPSink/DelAck {packetSize_ interval_ bytes_}
probe Agent/TCPSink/Sack1  {packetSize_ maxSackBlocks_ bytes_}
probe Queue/DropTail   {limit_ blocked_ unblock_on_resume_ drop_front_ summarystats_ queue_in_bytes_ mean_pktsize_}
probe DelayLink        {bandwidth_ delay_ avoidReordering_}
probe Application/FTP  {maxpkts_}
probe Application/Telnet {interval_}
probe ErrorModel       {rate_ enable_ markecn_ delay_pkt_ delay_ bandwidth_}

puts [format "%-22s %-22s %s" Simulator ns-version [ns-version]]
puts [format "%-22s %-22s %s" RNG defaultRNG-seed [[RNG defaultRNG] seed]]
exit 0
