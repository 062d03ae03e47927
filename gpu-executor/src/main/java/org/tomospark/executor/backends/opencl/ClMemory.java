package org.tomospark.executor.backends.opencl;

import org.jocl.CL;
import org.jocl.CLException;
import org.jocl.Pointer;
import org.jocl.cl_image_desc;
import org.jocl.cl_image_format;
import org.jocl.cl_mem;

import static org.jocl.CL.CL_INVALID_BUFFER_SIZE;
import static org.jocl.CL.CL_INVALID_IMAGE_SIZE;
import static org.jocl.CL.CL_MEM_OBJECT_ALLOCATION_FAILURE;
import static org.jocl.CL.CL_MEM_OBJECT_IMAGE2D;
import static org.jocl.CL.CL_MEM_READ_ONLY;
import static org.jocl.CL.CL_OUT_OF_HOST_MEMORY;
import static org.jocl.CL.CL_OUT_OF_RESOURCES;
import static org.jocl.CL.clCreateBuffer;
import static org.jocl.CL.clCreateImage;

/**
 * Device memory for one user of a device (the FBP back-projector, the FDK back-projector): buffers and images whose
 * failures say what was asked for, how many bytes, and the device's limits, instead of a bare OpenCL status.
 */
final class ClMemory {
    private final ClDeviceContext ctx;
    private final Object device;
    private final String label;

    /** @param label how errors begin, e.g. "opencl" or "opencl fdk" */
    ClMemory(ClDeviceContext ctx, Object device, String label) {
        this.ctx = ctx;
        this.device = device;
        this.label = label;
    }

    /** Refuses one allocation larger than the device allows (CL_DEVICE_MAX_MEM_ALLOC_SIZE), before it is tried. */
    void checkAlloc(String what, long bytes) {
        if (bytes > ctx.maxAlloc)
            throw new OpenClException(label + ": the " + what + " needs " + bytes + " bytes in one allocation but " + device
                    + " allows at most " + ctx.maxAlloc + " bytes (CL_DEVICE_MAX_MEM_ALLOC_SIZE); reconstruct a smaller ROI, "
                    + "fewer projections or fewer slices per pass");
    }

    cl_mem buffer(String what, long flags, long bytes, Pointer host) {
        try {
            return clCreateBuffer(ctx.context(), flags, bytes, host, null);
        } catch (CLException e) {
            throw error("allocating the " + what, bytes, e);
        }
    }

    /** A read-only 2D image of {@code width × height} texels of the given channel order and type. */
    cl_mem image(int width, int height, int channelOrder, int channelType, long bytes) {
        cl_image_format fmt = new cl_image_format();
        fmt.image_channel_order = channelOrder;
        fmt.image_channel_data_type = channelType;
        cl_image_desc desc = new cl_image_desc();
        desc.image_type = CL_MEM_OBJECT_IMAGE2D;
        desc.image_width = width;
        desc.image_height = height;
        try {
            return clCreateImage(ctx.context(), CL_MEM_READ_ONLY, fmt, desc, null, null);
        } catch (CLException e) {
            throw error("creating the " + width + " x " + height + " sinogram image", bytes, e);
        }
    }

    /** An OpenCL failure in words; out-of-memory statuses with the size asked for and the device's limits. */
    OpenClException error(String what, long bytes, CLException e) {
        int st = e.getStatus();
        String status = CL.stringFor_errorCode(st);
        if (st == CL_OUT_OF_RESOURCES || st == CL_MEM_OBJECT_ALLOCATION_FAILURE || st == CL_OUT_OF_HOST_MEMORY
                || st == CL_INVALID_BUFFER_SIZE || st == CL_INVALID_IMAGE_SIZE)
            return new OpenClException(label + ": " + what + " (" + bytes + " bytes) failed on " + device + " with " + status
                    + ": the device lacks the memory; its limits: CL_DEVICE_MAX_MEM_ALLOC_SIZE " + ctx.maxAlloc
                    + " bytes, CL_DEVICE_GLOBAL_MEM_SIZE " + ctx.globalMem + " bytes", e);
        return new OpenClException(label + ": " + what + " failed on " + device + " with " + status, e);
    }
}
