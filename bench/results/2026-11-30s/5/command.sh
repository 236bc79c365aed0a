set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
O1="--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off"
r() { /usr/bin/time -f "%e s wall, %M KB" ./build-exp/mdsim "$@" > $OUT/tmp.txt 2>$OUT/time.txt; echo "$* :: $(grep -o '[0-9.]* timesteps/s' $OUT/tmp.txt) $(grep -o 'builds = [0-9]*' $OUT/tmp.txt | head -1) $(tail -1 $OUT/time.txt)" | tee -a $OUT/large.txt; grep -i "memory\|GPU:" $OUT/tmp.txt | head -5 >> $OUT/large_detail.txt; }
for c in 126 160 202; do
  for sk in 0.44; do r configs/bench_lj.ini --set "system.cells=$c $c $c" --steps 600 $O1 --set neighbor.skin=$sk; done
done
nvidia-smi --query-gpu=memory.total --format=csv >> $OUT/large.txt
