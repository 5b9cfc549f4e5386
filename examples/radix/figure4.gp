# examples/radix/figure4.gp - the paper's Figure 4 set-up, reproduced: steps of the
# Petri-net model for the three radix sorts (left) beside their times measured on
# our H100 (right). Run from the repository root after the sweeps of README.md:
#   gnuplot examples/radix/figure4.gp   ->  examples/radix/results/figure4.png
set terminal pngcairo size 1200,480 font 'Sans,11'
set output 'examples/radix/results/figure4.png'
set datafile separator ','
set multiplot layout 1,2
set logscale x 2
set xtics (64, 128, 256, 512, 1024)
set xlabel 'threads per block'
set grid
set key top center
set title 'Petri-net model (gtx960m profile): steps' noenhanced
set ylabel 'steps (mean of 10 runs)'
set format y '%.1s%c'
plot 'examples/radix/results/radix-global.csv' every ::1 using 1:7 with linespoints lw 2 pt 7 dt 3 title '1: global, thread 0 sums', \
     'examples/radix/results/radix-tree.csv'   every ::1 using 1:7 with linespoints lw 2 pt 5 dt 1 title '2: global, tree of sums', \
     'examples/radix/results/radix-shared.csv' every ::1 using 1:7 with linespoints lw 2 pt 9 dt 2 title '3: shared, tree of sums'
set title 'NVIDIA H100 80GB HBM3: median kernel time' noenhanced
set ylabel 'microseconds (median of 50 launches)'
set format y '%g'
plot "< grep '^radix_global,' examples/data/h100/times.csv" using 2:4 with linespoints lw 2 pt 7 dt 3 title '1: global, thread 0 sums', \
     "< grep '^radix_tree,' examples/data/h100/times.csv"   using 2:4 with linespoints lw 2 pt 5 dt 1 title '2: global, tree of sums', \
     "< grep '^radix_shared,' examples/data/h100/times.csv" using 2:4 with linespoints lw 2 pt 9 dt 2 title '3: shared, tree of sums'
unset multiplot
