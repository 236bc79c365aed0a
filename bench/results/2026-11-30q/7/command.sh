cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd .. && export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs && (time OUT=$OUT bash bench/gpu_check.sh build-exp scaling) > $OUT/scaling_run.txt 2>&1
# call 7: make bench-scaling at 5f0eb0f
