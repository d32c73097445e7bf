NVCC=/usr/local/cuda-13.0/bin/nvcc
V="0:0 1:0 5:0 6:0"
for v in $V; do tw=${v%:*}; g=${v#*:}
  $NVCC -O3 -arch=sm_90 -std=c++17 -DTW=$tw -DSTORE_GROUP=$g -DVARIANT="\"tw$tw.g$g\"" -DKSRC='"p1.cu"' -o d_p1_${tw}_$g drive.cu -Xptxas -v 2>&1 | grep -i "registers" | sed "s/^/$v /" &
done; wait
for r in 1 2; do for v in $V; do ./d_p1_${v%:*}_${v#*:}; done; done
